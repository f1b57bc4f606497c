import {
  Files,
  HandCoins,
  ArrowLeft,
  BookOpen,
  CalendarDays,
  CreditCard,
  FileSearch,
  FileText,
  FolderTree,
  GraduationCap,
  Handshake,
  Info,
  KeyRound,
  Settings,
  LayoutDashboard,
  LoaderCircle,
  LogOut,
  Mail,
  MessageSquare,
  PanelLeft,
  ShieldCheck,
  ScrollText,
  UserCog,
  Users,
} from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Form, Link, NavLink, useLocation, useNavigation } from "react-router";
import { Dialog as DialogPrimitive } from "radix-ui";
import { Button } from "#app/components/ui/button.tsx";
import { ADMIN_NAV, ADMIN_SECURITY_NAV, type AdminNavPath } from "#app/lib/admin/nav.ts";
import { cn } from "#app/lib/ui/cn.ts";
import { EmailAddress } from "#app/components/ui/email-address.tsx";

const ICONS: Record<AdminNavPath, typeof LayoutDashboard> = {
  "/admin/dashboard": LayoutDashboard,
  "/admin/courses": BookOpen,
  "/admin/dates": CalendarDays,
  "/admin/categories": FolderTree,
  "/admin/inquiries": MessageSquare,
  "/admin/quotes": FileText,
  "/admin/licences": KeyRound,
  "/admin/payments": CreditCard,
  "/admin/documents": Files,
  "/admin/debtors": HandCoins,
  "/admin/newsletter-subscriptions": Mail,
  "/admin/partners": Handshake,
  "/admin/trainers": GraduationCap,
  "/admin/about": Info,
  "/admin/settings": Settings,
  "/admin/account": UserCog,
  "/admin/staff": Users,
  "/admin/audit": ScrollText,
  "/admin/privacy": FileSearch,
};

const NAV_GROUPS = [
  { label: "Management", items: ADMIN_NAV },
  { label: "Security", items: ADMIN_SECURITY_NAV },
] as const;

const SIDEBAR_ID = "admin-sidebar";
const DESKTOP = "(min-width: 768px)";

function SidebarContent({ email, onNavigate }: { email: string; onNavigate?: () => void }) {
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 items-center gap-2 border-b border-border px-4">
        <ShieldCheck aria-hidden className="size-5 text-primary" />
        <span className="font-semibold">Admin Panel</span>
      </div>
      <nav aria-label="Admin" className="flex-1 overflow-y-auto p-3">
        {NAV_GROUPS.map((group) => (
          <div key={group.label} className="mb-4 last:mb-0">
            <p className="px-2 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {group.label}
            </p>
            <ul className="space-y-1">
              {group.items.map((item) => {
                const Icon = ICONS[item.to];
                return (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      onClick={onNavigate}
                      className={({ isActive }) =>
                        cn(
                          "flex items-center gap-3 rounded-md px-2 py-2 text-sm font-medium transition-colors",
                          isActive
                            ? "bg-accent text-primary"
                            : "text-foreground/90 hover:bg-accent hover:text-accent-foreground",
                        )
                      }
                    >
                      <Icon aria-hidden className="size-4 shrink-0" />
                      {item.label}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="space-y-3 border-t border-border p-4">
        <p className="text-sm text-muted-foreground">
          Signed in as <EmailAddress email={email} className="text-foreground" />
        </p>
        {/* A full page load: signing out leaves nothing of the admin pages in memory. */}
        <Form method="post" action="/auth/sign-out" reloadDocument>
          <Button type="submit" variant="outline" className="w-full">
            <LogOut aria-hidden />
            Sign Out
          </Button>
        </Form>
      </div>
    </div>
  );
}

/**
 * The admin layout (decision 0004): a collapsible sidebar and a top bar. From 768 px the
 * sidebar sits beside the page and the toggle hides or shows it; on a phone it is a drawer over
 * the page, closed by a link, Escape or a tap outside.
 */
export function AdminShell({ email, children }: { email: string; children: ReactNode }) {
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [isDesktop, setIsDesktop] = useState(true);
  const navigation = useNavigation();
  const { pathname } = useLocation();

  useEffect(() => {
    const query = window.matchMedia(DESKTOP);
    const update = () => {
      setIsDesktop(query.matches);
      if (query.matches) setMobileOpen(false);
    };
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);

  // A new page closes the drawer.
  useEffect(() => setMobileOpen(false), [pathname]);

  const expanded = isDesktop ? desktopOpen : mobileOpen;
  const toggle = () => {
    if (window.matchMedia(DESKTOP).matches) setDesktopOpen((open) => !open);
    else setMobileOpen((open) => !open);
  };

  return (
    <div className="flex min-h-dvh">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-4 focus:left-4 focus:z-50 focus:rounded focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <aside
        id={SIDEBAR_ID}
        className={cn(
          "sticky top-0 h-dvh w-64 shrink-0 border-r border-border bg-card",
          desktopOpen ? "hidden md:block" : "hidden",
        )}
      >
        <SidebarContent email={email} />
      </aside>

      <DialogPrimitive.Root open={mobileOpen} onOpenChange={setMobileOpen}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/70 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in md:hidden" />
          <DialogPrimitive.Content
            id={`${SIDEBAR_ID}-drawer`}
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r border-border bg-card shadow-lg data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in md:hidden"
          >
            <DialogPrimitive.Title className="sr-only">Admin navigation</DialogPrimitive.Title>
            <SidebarContent email={email} onNavigate={() => setMobileOpen(false)} />
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-background/95 px-3 backdrop-blur md:px-4">
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label="Toggle sidebar"
            aria-controls={isDesktop ? SIDEBAR_ID : `${SIDEBAR_ID}-drawer`}
            aria-expanded={expanded}
            onClick={toggle}
          >
            <PanelLeft aria-hidden />
          </Button>
          {navigation.state !== "idle" ? (
            <span role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
              <span className="sr-only">Loading</span>
            </span>
          ) : null}
          <div className="flex-1" />
          <Button asChild variant="outline" size="sm">
            <Link to="/">
              <ArrowLeft aria-hidden />
              Back to Website
            </Link>
          </Button>
        </header>
        <main id="admin-main" className="min-w-0 flex-1 p-4 md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
