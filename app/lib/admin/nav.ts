import type { MetaDescriptor } from "react-router";

/** The admin sidebar's 'Management' group, at the paths of app/routes.ts. */
export const ADMIN_NAV = [
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/courses", label: "Courses" },
  { to: "/admin/dates", label: "Dates" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/inquiries", label: "Inquiries" },
  { to: "/admin/quotes", label: "Quotes" },
  { to: "/admin/licences", label: "Licences" },
  { to: "/admin/payments", label: "Payments" },
  { to: "/admin/documents", label: "Documents" },
  { to: "/admin/debtors", label: "Debtors" },
  { to: "/admin/newsletter-subscriptions", label: "Newsletter" },
  { to: "/admin/partners", label: "Partners" },
  { to: "/admin/trainers", label: "Trainers" },
  { to: "/admin/about", label: "About Page" },
  { to: "/admin/settings", label: "Settings" },
] as const;

/**
 * The sidebar's 'Security' group (decisions 0017–0020): the signed-in admin's own account
 * (two-factor sign-in, sessions), the staff, the audit log and data-protection requests.
 */
export const ADMIN_SECURITY_NAV = [
  { to: "/admin/account", label: "My Account" },
  { to: "/admin/staff", label: "Staff" },
  { to: "/admin/audit", label: "Audit Log" },
  { to: "/admin/privacy", label: "Data Requests" },
] as const;

export type AdminNavPath =
  (typeof ADMIN_NAV)[number]["to"] | (typeof ADMIN_SECURITY_NAV)[number]["to"];

/** `meta` for an admin page: '{title} | Admin Panel', never indexed. */
export function adminMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | Admin Panel` }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * The toast (titled 'Error') shown when a screen's list cannot be loaded. Those screens'
 * loaders throw; the admin layout's error boundary shows the toast for the screen asked for.
 */
export const LOAD_FAILED_MESSAGES: Partial<Record<AdminNavPath, string>> = {
  "/admin/inquiries": "Failed to fetch inquiries",
  "/admin/payments": "Failed to load orders",
  "/admin/documents": "Failed to load documents",
  "/admin/debtors": "Failed to load unpaid invoices",
  "/admin/newsletter-subscriptions": "Failed to load newsletter subscriptions",
  "/admin/courses": "Failed to fetch courses",
  "/admin/dates": "Failed to load dates",
  "/admin/categories": "Failed to fetch categories",
  "/admin/partners": "Failed to fetch partners",
  "/admin/trainers": "Failed to fetch trainers",
  "/admin/about": "Failed to load the About page",
};

/** The sidebar's entry for a path, if it is one. */
export function adminNavItem(pathname: string) {
  const path = pathname.replace(/\/+$/, "");
  return [...ADMIN_NAV, ...ADMIN_SECURITY_NAV].find((item) => item.to === path);
}
