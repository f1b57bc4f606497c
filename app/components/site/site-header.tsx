import { ChevronDown, Menu, ShieldCheck, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { EXCLUSIVE_FILTER_VALUE } from "#app/lib/catalogue.ts";
import type { TrainingMenu } from "#app/lib/navigation.ts";
import { quoteLink } from "#app/lib/inquiry-schemas.ts";

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
        <Link
          to={quoteLink("counter-fraud-training")}
          className={cn(item, "font-semibold")}
          onClick={onNavigate}
        >
          Custom Training Quote
        </Link>
      </li>
    </ul>
  );
}

/**
 * A disclosure rather than a menu widget: its links are in the server HTML (crawlers, no-JS).
 * Until scripts run, CSS shows the panel while the pointer is over it or focus is in it, so
 * tabbing past it closes it by itself. Once they run, state alone does: Enter, Space or a click
 * on the trigger (or a mouse hovering) opens it; focus moving out of it, Escape, a press
 * elsewhere or a navigation closes it. Nothing done before scripts ran is carried over: the
 * panel starts closed, whatever the CSS was showing.
 */
function TrainingDropdown({ menu }: { menu: TrainingMenu }) {
  // Hovering opens it for a look; a click or key press holds it open (or closes a held one), so
  // a mouse user's click on a panel that hovering already opened does not close it again.
  const [openedBy, setOpenedBy] = useState<"hover" | "held" | null>(null);
  const open = openedBy !== null;
  // Closed by the visitor while the pointer is over it: hovering does not reopen it until the
  // pointer has left.
  const hoverDismissed = useRef(false);
  const close = () => setOpenedBy(null);
  const dismiss = () => {
    hoverDismissed.current = true;
    close();
  };
  const scripted = useScripted();
  const { pathname } = useLocation();
  const panelId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const active =
    pathname.startsWith("/services/counter-fraud-training") || pathname.startsWith("/courses/");

  useEffect(() => close(), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // Focus goes back to the trigger only from inside: Escape elsewhere (a panel opened by
      // hovering) must not take the visitor's focus away.
      const focusInside = ref.current?.contains(document.activeElement) ?? false;
      hoverDismissed.current = true;
      setOpenedBy(null);
      if (focusInside) trigger.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const hover = (event: React.PointerEvent) => {
    if (event.pointerType === "mouse" && !hoverDismissed.current) {
      setOpenedBy((v) => v ?? "hover");
    }
  };

  return (
    <div
      ref={ref}
      className="group relative"
      data-state={open ? "open" : "closed"}
      onPointerEnter={(e) => {
        if (e.pointerType === "mouse") hoverDismissed.current = false;
        hover(e);
      }}
      onPointerMove={hover}
      onPointerLeave={(e) => {
        if (e.pointerType !== "mouse") return;
        hoverDismissed.current = false;
        setOpenedBy((v) => (v === "hover" ? null : v));
      }}
      onFocus={(e) => {
        // Focus in the panel holds it open, even once the pointer leaves.
        if (panel.current?.contains(e.target)) setOpenedBy((v) => (v === "hover" ? "held" : v));
      }}
      onBlur={(e) => {
        // Focus moving to anything outside the trigger and the panel closes it. No new target
        // (the window lost focus, a press on a bare part of the panel) leaves it as it is.
        const next = e.relatedTarget;
        if (next && !e.currentTarget.contains(next)) close();
      }}
    >
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (openedBy === "held") dismiss();
          else setOpenedBy("held");
        }}
        className={cn(linkClass({ isActive: active }), "inline-flex items-center gap-1")}
      >
        Training
        <ChevronDown aria-hidden className="size-4" />
      </button>
      <div
        ref={panel}
        id={panelId}
        className={cn(
          "absolute left-0 top-full z-50 hidden max-h-[70vh] w-80 overflow-y-auto rounded-md border border-border bg-card p-2 shadow-xl",
          scripted ? "group-data-[state=open]:block" : "group-hover:block group-focus-within:block",
        )}
      >
        <TrainingLinks menu={menu} onNavigate={close} />
      </div>
    </div>
  );
}

/** False in the server HTML and until the page is hydrated, then true. */
function useScripted(): boolean {
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  return scripted;
}

export function SiteHeader({ trainingMenu }: { trainingMenu: TrainingMenu }) {
  const { pathname } = useLocation();
  // The <details> element keeps its own open state (so it works before scripts run); the state
  // here only mirrors it for the toggle's label. Scripts close it through the element.
  const mobileMenu = useRef<HTMLDetailsElement>(null);
  const [mobileOpen, setMobileOpen] = useState(false);
  const close = () => {
    if (mobileMenu.current) mobileMenu.current.open = false;
  };
  // The label says what the element shows, which may be open since before scripts ran.
  useEffect(() => setMobileOpen(mobileMenu.current?.open ?? false), []);
  // Closed on every navigation, by link or by history (not when the page first hydrates).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    close();
  }, [pathname]);
  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const menu = mobileMenu.current;
      const focusInside = menu?.contains(document.activeElement) ?? false;
      close();
      if (focusInside) menu?.querySelector("summary")?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [mobileOpen]);

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
          className="group md:hidden"
          onToggle={(event) => setMobileOpen(event.currentTarget.open)}
          onBlur={(event) => {
            // Tabbing past its last link closes it rather than leaving it over the page.
            const next = event.relatedTarget;
            if (next && !event.currentTarget.contains(next)) close();
          }}
        >
          <summary
            className="flex size-10 cursor-pointer list-none items-center justify-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
          >
            <Menu aria-hidden className="size-6 group-open:hidden" />
            <X aria-hidden className="hidden size-6 group-open:block" />
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
