import { ChevronDown, Menu, ShieldCheck, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { EXCLUSIVE_FILTER_VALUE } from "#app/lib/catalogue.ts";
import type { TrainingMenu } from "#app/lib/navigation.ts";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-primary",
    isActive ? "text-primary" : "text-foreground/90",
  );

export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
      <ShieldCheck aria-hidden className="size-6 text-primary" />
      <span>NightWatch</span>
    </Link>
  );
}

const CATALOGUE_PATH = "/services/counter-fraud-training";

const moreLabel = (count: number, group: string) =>
  `${count.toLocaleString("en-GB")} more ${group} ${count === 1 ? "course" : "courses"}`;

/** The Training dropdown's entries, shared by the desktop menu and the mobile panel. */
function TrainingLinks({ menu, onNavigate }: { menu: TrainingMenu; onNavigate?: () => void }) {
  const item = "block rounded px-3 py-1.5 text-sm hover:bg-accent hover:text-accent-foreground";
  return (
    <ul className="space-y-0.5">
      <li>
        <Link to={CATALOGUE_PATH} className={cn(item, "font-semibold")} onClick={onNavigate}>
          All Training Courses
        </Link>
      </li>
      {menu.exclusive.map((course) => (
        <li key={course.slug}>
          <Link to={`/courses/${course.slug}`} className={item} onClick={onNavigate}>
            {course.title}
          </Link>
        </li>
      ))}
      {menu.exclusiveMore > 0 ? (
        <li>
          <Link
            to={`${CATALOGUE_PATH}?partner=${EXCLUSIVE_FILTER_VALUE}`}
            className={cn(item, "text-primary")}
            onClick={onNavigate}
          >
            {moreLabel(menu.exclusiveMore, "NightWatch")}
          </Link>
        </li>
      ) : null}
      {menu.partners.map((group) => (
        <li key={group.partnerName} className="pt-1">
          <span className="block px-3 py-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {group.partnerName}
          </span>
          <ul>
            {group.courses.map((course) => (
              <li key={course.slug}>
                <Link to={`/courses/${course.slug}`} className={item} onClick={onNavigate}>
                  - {course.title}
                </Link>
              </li>
            ))}
            {group.more > 0 ? (
              <li>
                <Link
                  to={`${CATALOGUE_PATH}?partner=${encodeURIComponent(group.partnerName)}`}
                  className={cn(item, "text-primary")}
                  onClick={onNavigate}
                >
                  - {moreLabel(group.more, group.partnerName)}
                </Link>
              </li>
            ) : null}
          </ul>
        </li>
      ))}
      <li className="border-t border-border pt-1">
        <Link to="/quote" className={cn(item, "font-semibold")} onClick={onNavigate}>
          Custom Training Quote
        </Link>
      </li>
    </ul>
  );
}

/**
 * A disclosure rather than a menu widget: its links are in the server HTML (crawlers, no-JS),
 * shown on hover and keyboard focus by CSS, and toggled by click when scripts run.
 */
function TrainingDropdown({ menu }: { menu: TrainingMenu }) {
  // Hovering opens it for a look; a click pins it open (or closes a pinned one), so a mouse
  // user's click on a panel that hovering already opened does not close it again.
  const [openedBy, setOpenedBy] = useState<"hover" | "click" | null>(null);
  const open = openedBy !== null;
  const close = () => setOpenedBy(null);
  // Until scripts run, CSS opens the panel on hover and focus; after that, state does.
  const [enhanced, setEnhanced] = useState(false);
  const { pathname } = useLocation();
  const panelId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const active =
    pathname.startsWith("/services/counter-fraud-training") || pathname.startsWith("/courses/");

  useEffect(() => close(), [pathname]);
  // After the close above (effects run in order), so on hydration this one has the last word.
  useEffect(() => {
    setEnhanced(true);
    // A panel the CSS already shows (pointer over it, keyboard focus in it, before scripts ran)
    // stays open. A mouse click made before is replayed after this (app/lib/hydration.ts).
    if (ref.current?.matches(":hover")) setOpenedBy("hover");
    else if (ref.current?.querySelector(":focus-visible")) setOpenedBy("click");
  }, []);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        close();
        ref.current?.querySelector("button")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div
      ref={ref}
      className="group relative"
      data-state={open ? "open" : "closed"}
      onPointerEnter={(e) => e.pointerType === "mouse" && setOpenedBy((v) => v ?? "hover")}
      onPointerLeave={(e) =>
        e.pointerType === "mouse" && setOpenedBy((v) => (v === "hover" ? null : v))
      }
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpenedBy((v) => (v === "click" ? null : "click"))}
        className={cn(linkClass({ isActive: active }), "inline-flex items-center gap-1")}
      >
        Training
        <ChevronDown aria-hidden className="size-4" />
      </button>
      <div
        id={panelId}
        className={cn(
          "absolute left-0 top-full z-50 hidden max-h-[70vh] w-80 overflow-y-auto rounded-md border border-border bg-card p-2 shadow-xl",
          enhanced ? "group-data-[state=open]:block" : "group-hover:block group-focus-within:block",
        )}
      >
        <TrainingLinks menu={menu} onNavigate={close} />
      </div>
    </div>
  );
}

export function SiteHeader({ trainingMenu }: { trainingMenu: TrainingMenu }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  const mobileMenu = useRef<HTMLDetailsElement>(null);
  useEffect(() => setMobileOpen(false), [pathname]);
  // Opened before scripts ran (a page that hydrates on interaction): keep it open, say so.
  useEffect(() => {
    if (mobileMenu.current?.open) setMobileOpen(true);
  }, []);
  const close = () => setMobileOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          <NavLink to="/services/dark-web-monitoring" className={linkClass}>
            Dark Web Monitoring
          </NavLink>
          <TrainingDropdown menu={trainingMenu} />
          <NavLink to="/services/security-consultancy" className={linkClass}>
            Security Consultancy
          </NavLink>
          <NavLink to="/services/file-interrogator" className={linkClass}>
            File Interrogator
          </NavLink>
          <NavLink to="/about" className={linkClass}>
            About
          </NavLink>
          <Link
            to="/quote"
            className="ml-2 rounded-md bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground hover:bg-primary/90"
          >
            Contact
          </Link>
        </nav>

        {/* Below 768 px: a toggle menu. <details> keeps it usable before scripts load. */}
        <details
          ref={mobileMenu}
          className="md:hidden"
          open={mobileOpen}
          onToggle={(event) => setMobileOpen(event.currentTarget.open)}
        >
          <summary
            className="flex size-10 cursor-pointer list-none items-center justify-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
          >
            {mobileOpen ? (
              <X aria-hidden className="size-6" />
            ) : (
              <Menu aria-hidden className="size-6" />
            )}
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute inset-x-0 top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-border bg-background px-4 pb-6 pt-2 shadow-xl"
          >
            <ul className="space-y-1">
              {[
                { to: "/", label: "Home" },
                { to: "/services/dark-web-monitoring", label: "Dark Web Monitoring" },
              ].map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to} end className={linkClass} onClick={close}>
                    {l.label}
                  </NavLink>
                </li>
              ))}
              <li>
                <span className="block px-3 py-2 text-sm font-medium text-muted-foreground">
                  Training
                </span>
                <div className="pl-2">
                  <TrainingLinks menu={trainingMenu} onNavigate={close} />
                </div>
              </li>
              {[
                { to: "/services/security-consultancy", label: "Security Consultancy" },
                { to: "/services/file-interrogator", label: "File Interrogator" },
                { to: "/about", label: "About" },
                { to: "/quote", label: "Contact" },
                { to: "/auth", label: "Admin" },
              ].map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to} className={linkClass} onClick={close}>
                    {l.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </details>
      </div>
    </header>
  );
}
