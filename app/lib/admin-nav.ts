import type { MetaDescriptor } from "react-router";

/** The admin sidebar's 'Management' group, at the paths of spec §2. */
export const ADMIN_NAV = [
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/courses", label: "Courses" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/inquiries", label: "Inquiries" },
  { to: "/admin/payments", label: "Payments" },
  { to: "/admin/newsletter-subscriptions", label: "Newsletter" },
  { to: "/admin/partners", label: "Partners" },
] as const;

export type AdminNavPath = (typeof ADMIN_NAV)[number]["to"];

/** `meta` for an admin page: '{title} | Admin Panel', never indexed. */
export function adminMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | Admin Panel` }, { name: "robots", content: "noindex, nofollow" }];
}
