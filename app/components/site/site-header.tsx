import { ChevronDown, Menu, ShieldCheck, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { cn } from "#app/lib/ui/cn.ts";
import { EXCLUSIVE_FILTER_VALUE } from "#app/lib/catalogue/catalogue.ts";
import type { TrainingMenu } from "#app/lib/catalogue/navigation.ts";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    // One line each: the bar switches to the toggle menu before its labels would wrap.
    "rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors hover:text-primary",
    isActive ? "text-primary" : "text-foreground/90",
  );

/** The phone menu's rows: at least 44 px tall, the size of a fingertip. */
const mobileLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "flex min-h-11 items-center rounded-md px-3 py-2 text-base font-medium transition-colors hover:bg-accent hover:text-primary",
    isActive ? "text-primary" : "text-foreground/90",
  );

/** The Training menu is the current section on the catalogue and on every course's pages. */
const trainingActive = (pathname: string) =>
  pathname.startsWith("/services/counter-fraud-training") || pathname.startsWith("/courses/");

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

/** The heading of the column of courses with no partner (the catalogue's badge says the same). */
const EXCLUSIVE_HEADING = "NightWatch Exclusive";

/** The Training menu's groups, in the spec's order: courses with no partner, then each partner. */
function trainingGroups(menu: TrainingMenu) {
  const groups: {
    key: string;
    heading: string;
    courses: TrainingMenu["exclusive"];
    more: number;
    moreHref: string;
    moreText: string;
    dash: boolean;
  }[] = [];
  if (menu.exclusive.length > 0) {
    groups.push({
      key: "exclusive",
      heading: EXCLUSIVE_HEADING,
      courses: menu.exclusive,
      more: menu.exclusiveMore,
      moreHref: `${CATALOGUE_PATH}?partner=${EXCLUSIVE_FILTER_VALUE}`,
      moreText: moreLabel(menu.exclusiveMore, "NightWatch"),
      dash: false,
    });
  }
  for (const group of menu.partners) {
    groups.push({
      key: `partner-${group.partnerName}`,
      heading: group.partnerName,
      courses: group.courses,
      more: group.more,
      moreHref: `${CATALOGUE_PATH}?partner=${encodeURIComponent(group.partnerName)}`,
      moreText: `- ${moreLabel(group.more, group.partnerName)}`,
      dash: true,
    });
  }
  return groups;
}

/** The desktop panel holds up to this many columns, one group each; more groups wrap. */
const MAX_MENU_COLUMNS = 4;

/** How many columns the desktop panel shows: one per group, within MAX_MENU_COLUMNS. */
const menuColumns = (menu: TrainingMenu) =>
  Math.min(Math.max(trainingGroups(menu).length, 1), MAX_MENU_COLUMNS);

/**
 * The Training entries, shared by the desktop panel and the phone menu, in the spec's order:
 * All Training Courses; courses with no partner; one group per partner, its courses prefixed by a
 * dash; Custom Training Quote. On a desktop the groups sit side by side in columns between a top
 * row (All Training Courses) and a bottom row (Custom Training Quote) that always show; on a phone
 * they are one list of rows tall enough to tap (44 px).
 */
function TrainingLinks({
  menu,
  layout,
  onNavigate,
}: {
  menu: TrainingMenu;
  layout: "columns" | "list";
  onNavigate?: () => void;
}) {
  const columns = layout === "columns";
  const item = columns
    ? "block rounded px-3 py-1.5 text-sm hover:bg-accent hover:text-accent-foreground"
    : "flex min-h-11 items-center rounded-md px-3 py-2 text-base hover:bg-accent hover:text-accent-foreground";
  const heading = columns
    ? "block px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground"
    : "flex min-h-8 items-end px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground";
  const groups = trainingGroups(menu);
  const count = menuColumns(menu);

  const all = (
    <Link to={CATALOGUE_PATH} className={cn(item, "font-semibold")} onClick={onNavigate}>
      All Training Courses
    </Link>
  );
  const quote = (
    <Link
      to={quoteLink("counter-fraud-training")}
      className={cn(item, "font-semibold text-primary")}
      onClick={onNavigate}
    >
      Custom Training Quote
    </Link>
  );
  const list = (
    <ul
      className={columns ? "grid gap-x-4 gap-y-3" : "space-y-1"}
      style={columns ? { gridTemplateColumns: `repeat(${count}, minmax(0, 1fr))` } : undefined}
    >
      {groups.map((group) => (
        <li key={group.key}>
          <span className={heading}>{group.heading}</span>
          <ul className={columns ? "space-y-0.5" : undefined}>
            {group.courses.map((course) => (
              <li key={course.slug}>
                <Link to={`/courses/${course.slug}`} className={item} onClick={onNavigate}>
                  {group.dash ? `- ${course.title}` : course.title}
                </Link>
              </li>
            ))}
            {group.more > 0 ? (
              <li>
                <Link to={group.moreHref} className={cn(item, "text-primary")} onClick={onNavigate}>
                  {group.moreText}
                </Link>
              </li>
            ) : null}
          </ul>
        </li>
      ))}
    </ul>
  );

  if (!columns) {
    return (
      <div className="space-y-1">
        {all}
        {list}
        <div className="border-t border-border pt-1">{quote}</div>
      </div>
    );
  }
  return (
    <>
      <div className="border-b border-border p-2">{all}</div>
      {/* Only a window too short for every group scrolls here; the rows around it stay. */}
      <div className="min-h-0 flex-1 overflow-y-auto p-2 pt-3">{list}</div>
      <div className="border-t border-border p-2">{quote}</div>
    </>
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
  const active = trainingActive(pathname);

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
      // As tall as the header, so the panel opens right under its edge and the pointer never
      // crosses a gap between trigger and panel. The panel is placed against the header's row
      // (the positioned ancestor), not this trigger: it can be wider than the trigger's place.
      className="group flex items-center self-stretch"
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
          "absolute right-4 top-full z-50 hidden max-h-[calc(100dvh-5rem)] max-w-[calc(100%-2rem)] flex-col rounded-md border border-border bg-card shadow-xl",
          scripted ? "group-data-[state=open]:flex" : "group-hover:flex group-focus-within:flex",
        )}
        // Wide enough for its columns (15rem each); never wider than the header's row.
        style={{ width: `${menuColumns(menu) * 15 + 1}rem` }}
      >
        <TrainingLinks menu={menu} layout="columns" onNavigate={close} />
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
  const mobileTraining = useRef<HTMLDetailsElement>(null);
  const [mobileOpen, setMobileOpen] = useState(false);
  // Closing the menu folds its Training section again: it opens closed next time.
  const close = () => {
    if (mobileMenu.current) mobileMenu.current.open = false;
    if (mobileTraining.current) mobileTraining.current.open = false;
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
      if (focusInside) menu?.querySelector<HTMLElement>(":scope > summary")?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [mobileOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
      {/* Positioned: the Training panel and the phone menu are placed against this row. */}
      <div className="relative mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Logo />
        {/* From 1280 px: the spec's links in a row, each on one line (narrower, they would
            wrap or push the Contact button off the screen). */}
        <nav aria-label="Main" className="hidden items-center gap-1 self-stretch xl:flex">
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
            className="ml-2 rounded-md bg-primary px-4 py-2 text-sm font-semibold whitespace-nowrap text-primary-foreground hover:bg-primary/90"
          >
            Contact
          </Link>
        </nav>

        {/* Below 1280 px: a toggle menu (with the Admin link below 768 px, as the spec says).
            <details> keeps it usable before scripts load. */}
        <details
          ref={mobileMenu}
          className="group xl:hidden"
          onToggle={(event) => {
            // Training's own <details> inside it toggles too: only this element's state counts.
            if (event.target === event.currentTarget) setMobileOpen(event.currentTarget.open);
          }}
          onBlur={(event) => {
            // Tabbing past its last link closes it rather than leaving it over the page.
            const next = event.relatedTarget;
            if (next && !event.currentTarget.contains(next)) close();
          }}
        >
          <summary
            className="flex size-11 cursor-pointer list-none items-center justify-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
          >
            <Menu aria-hidden className="size-6 group-open:hidden" />
            <X aria-hidden className="hidden size-6 group-open:block" />
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute inset-x-0 top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto overscroll-contain border-b border-border bg-background px-4 pb-6 pt-2 shadow-xl"
          >
            <ul className="space-y-1">
              {[
                { to: "/", label: "Home" },
                { to: "/services/dark-web-monitoring", label: "Dark Web Monitoring" },
              ].map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to} end className={mobileLinkClass} onClick={close}>
                    {l.label}
                  </NavLink>
                </li>
              ))}
              <li>
                {/* Closed until asked for, so the links after it stay on the first screen. A
                    <details> of its own: it opens and closes without scripts too. */}
                <details ref={mobileTraining} className="group/training">
                  <summary
                    className={cn(
                      mobileLinkClass({ isActive: trainingActive(pathname) }),
                      "cursor-pointer list-none justify-between [&::-webkit-details-marker]:hidden",
                    )}
                  >
                    Training
                    <ChevronDown
                      aria-hidden
                      className="size-5 transition-transform group-open/training:rotate-180"
                    />
                  </summary>
                  <div className="border-l border-border pb-2 pl-2 ml-3">
                    <TrainingLinks menu={trainingMenu} layout="list" onNavigate={close} />
                  </div>
                </details>
              </li>
              {[
                { to: "/services/security-consultancy", label: "Security Consultancy" },
                { to: "/services/file-interrogator", label: "File Interrogator" },
                { to: "/about", label: "About" },
                { to: "/quote", label: "Contact" },
                { to: "/auth", label: "Admin" },
              ].map((l) => (
                <li key={l.to} className={l.to === "/auth" ? "md:hidden" : undefined}>
                  <NavLink to={l.to} className={mobileLinkClass} onClick={close}>
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
