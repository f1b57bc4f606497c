import {
  Archive,
  BookOpen,
  CircleCheck,
  Clock,
  CreditCard,
  FolderTree,
  Handshake,
  Inbox,
  Mail,
  MessageSquare,
} from "lucide-react";
import { Link } from "react-router";
import { requireAdmin } from "#server/auth.server.ts";
import { countInquiriesByStatus, latestInquiries } from "#server/inquiry-admin.server.ts";
import { log } from "#server/log.server.ts";
import {
  AdminPageHeader,
  InquiryStatusBadge,
  InquiryTypeBadge,
  StatCard,
} from "#app/components/admin/admin-ui.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import {
  emptyInquiryCounts,
  type AdminInquiry,
  type InquiryCounts,
} from "#app/lib/admin-inquiries.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { relativeTime } from "#app/lib/admin-time.ts";
import type { Route } from "./+types/dashboard";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  let counts: InquiryCounts = emptyInquiryCounts();
  let latest: AdminInquiry[] = [];
  try {
    [counts, latest] = await Promise.all([countInquiriesByStatus(), latestInquiries(10)]);
  } catch (error) {
    // Spec §8: dashboard load errors are only logged; the page shows what it has.
    log.error({ err: error }, "dashboard: could not load inquiries");
  }
  // One clock for the server render and the browser's hydration.
  return { email: admin.email, counts, latest, now: Date.now() };
}

export const meta: Route.MetaFunction = () => adminMeta("Dashboard");

const AREAS = [
  {
    to: "/admin/courses",
    label: "Courses",
    description: "Create and edit training courses",
    icon: BookOpen,
  },
  {
    to: "/admin/categories",
    label: "Categories",
    description: "Group courses by subject",
    icon: FolderTree,
  },
  {
    to: "/admin/inquiries",
    label: "Inquiries",
    description: "Track and answer enquiries",
    icon: MessageSquare,
  },
  {
    to: "/admin/payments",
    label: "Payments",
    description: "Orders, invoices and payments",
    icon: CreditCard,
  },
  {
    to: "/admin/newsletter-subscriptions",
    label: "Newsletter",
    description: "Subscribers and exports",
    icon: Mail,
  },
  {
    to: "/admin/partners",
    label: "Partners",
    description: "Training partners and links",
    icon: Handshake,
  },
] as const;

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { email, counts, latest, now } = loaderData;
  return (
    <>
      <AdminPageHeader title="Admin Dashboard" description={`Welcome back, ${email}`} />

      <section aria-label="Inquiry counts" className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        <StatCard label="New" value={counts.new} icon={Inbox} tone="info" />
        <StatCard label="In Progress" value={counts.in_progress} icon={Clock} tone="warning" />
        <StatCard label="Resolved" value={counts.replied} icon={CircleCheck} tone="success" />
        <StatCard label="Closed" value={counts.closed} icon={Archive} tone="muted" />
        <StatCard label="Total" value={counts.total} icon={MessageSquare} tone="muted" />
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle as="h2" className="text-lg">
              Recent Inquiries
            </CardTitle>
            <Link
              to="/admin/inquiries"
              className="text-sm text-primary underline-offset-4 hover:underline"
            >
              View all
            </Link>
          </CardHeader>
          <CardContent>
            {latest.length === 0 ? (
              <p className="py-6 text-center text-muted-foreground">No inquiries found.</p>
            ) : (
              <ul className="divide-y divide-border" aria-label="Latest inquiries">
                {latest.map((inquiry) => (
                  <li
                    key={inquiry.id}
                    className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
                  >
                    <div className="min-w-0">
                      <p className="truncate font-medium">{inquiry.name}</p>
                      <p className="truncate text-sm text-muted-foreground">{inquiry.email}</p>
                    </div>
                    <div className="flex flex-wrap items-center gap-2">
                      <InquiryTypeBadge type={inquiry.inquiryType} />
                      <InquiryStatusBadge status={inquiry.status} />
                      <time
                        dateTime={inquiry.createdAt}
                        className="text-xs whitespace-nowrap text-muted-foreground"
                      >
                        {relativeTime(inquiry.createdAt, now)}
                      </time>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card className="min-w-0">
          <CardHeader>
            <CardTitle as="h2" className="text-lg">
              Manage
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2">
              {AREAS.map(({ to, label, description, icon: Icon }) => (
                <li key={to}>
                  <Link
                    to={to}
                    className="flex items-center gap-3 rounded-md border border-border p-3 transition-colors hover:bg-accent"
                  >
                    <Icon aria-hidden className="size-5 shrink-0 text-primary" />
                    <span>
                      <span className="block font-medium">{label}</span>
                      <span className="block text-sm text-muted-foreground">{description}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
