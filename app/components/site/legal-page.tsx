import { Mail } from "lucide-react";
import type { ReactNode } from "react";
import { DPO_EMAIL, LEGAL_EMAIL, PRIVACY_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { SellerDetailsLine, useSellerDetails } from "./seller-details.tsx";

/** One numbered section of a legal page; `id` is its anchor in the contents list. */
export interface LegalSection {
  id: string;
  title: string;
  content: ReactNode;
}

const londonDate = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "Europe/London",
});

/** Today as the legal pages print it ('5 March 2025'), in UK time. */
export function legalDate(now: Date = new Date()): string {
  return londonDate.format(now);
}

/**
 * The legal pages' loader: the date shown is the day of the request, so it is computed when
 * the page is served, not at build time.
 */
export function legalPageLoader() {
  return { lastUpdated: legalDate() };
}

/** What one legal page says: its title and description (also its meta tags), intro and sections. */
export interface LegalPageContent {
  title: string;
  description: string;
  intro: ReactNode;
  sections: LegalSection[];
}

/** A mailbox as a link, for use inside legal text. */
export function MailLink({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}

/** Body text styles for the sections' paragraphs, lists, links and sub-headings. */
const prose = [
  "space-y-4 leading-relaxed text-foreground/90",
  "[&_h3]:pt-2 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-foreground",
  "[&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
  "[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:text-primary/80",
  "[&_strong]:font-semibold [&_strong]:text-foreground",
].join(" ");

const MAILBOXES = [
  { label: "Privacy questions", email: PRIVACY_EMAIL },
  { label: "Legal and contract matters", email: LEGAL_EMAIL },
  { label: "Data Protection Officer", email: DPO_EMAIL },
];

/**
 * The privacy, terms and GDPR pages: title, the date they were last updated, a contents
 * list, numbered sections and the mailboxes to write to.
 */
export function LegalPage({
  title,
  intro,
  lastUpdated,
  sections,
}: Omit<LegalPageContent, "description"> & { lastUpdated: string }) {
  const seller = useSellerDetails();
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">Last updated: {lastUpdated}</p>
        <div className="mt-6 text-lg text-muted-foreground">{intro}</div>
      </header>

      <div className="mt-12 grid gap-12 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <p className="text-sm font-semibold tracking-wide text-foreground uppercase">
            On this page
          </p>
          <ol className="mt-3 space-y-2 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="text-muted-foreground hover:text-primary hover:underline"
                >
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="min-w-0 max-w-3xl space-y-12">
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
              <h2 id={`${section.id}-title`} className="text-2xl font-semibold tracking-tight">
                {index + 1}. {section.title}
              </h2>
              <div className={`mt-4 ${prose}`}>{section.content}</div>
            </section>
          ))}

          <section
            aria-labelledby="legal-contacts-title"
            className="rounded-lg border border-border bg-card p-6"
          >
            <h2 id="legal-contacts-title" className="text-xl font-semibold">
              How to contact us
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              NightWatch, London, United Kingdom. Write to the mailbox that fits your question.
            </p>
            {seller ? (
              <div className="mt-3">
                <h3 className="text-sm font-semibold">Who we are</h3>
                <SellerDetailsLine seller={seller} className="mt-1 text-sm text-muted-foreground" />
              </div>
            ) : null}
            <ul className="mt-4 grid gap-4 sm:grid-cols-3">
              {MAILBOXES.map((box) => (
                <li key={box.email} className="flex gap-3">
                  <Mail aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
                  <span className="min-w-0">
                    <span className="block text-sm text-muted-foreground">{box.label}</span>
                    <a
                      href={`mailto:${box.email}`}
                      className="text-sm font-medium [overflow-wrap:anywhere] underline underline-offset-4 hover:text-primary"
                    >
                      {box.email}
                    </a>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}

/**
 * The cookies this site sets, for the privacy and GDPR pages. Keep it true: the staff session
 * set when an administrator signs in, and the booking cookie set when a visitor books a course
 * (server/payments/buyer-orders.server.ts).
 */
export function CookieList() {
  return (
    <div className="space-y-4">
      <CookieRows
        rows={[
          ["Cookie", "Admin session"],
          ["Category", "Strictly necessary"],
          [
            "Purpose",
            "Keeps a signed-in member of NightWatch staff signed in to the administration area and protects that session.",
          ],
          [
            "Who receives it",
            "Signed-in staff only. It is never set for visitors to the public site.",
          ],
          [
            "Properties",
            "First-party, httpOnly (not readable by scripts in the page), sent only to this site.",
          ],
          ["Duration", "Until the member of staff signs out or the session expires."],
        ]}
      />
      <CookieRows
        rows={[
          ["Cookie", "Booking confirmation"],
          ["Category", "Strictly necessary"],
          [
            "Purpose",
            "Remembers the bookings made in this browser, so that only the person who booked sees the order reference and summary on the confirmation page.",
          ],
          [
            "Who receives it",
            "Visitors who book a course through our checkout. It is sent only to the course pages.",
          ],
          [
            "Properties",
            "First-party, httpOnly, signed so it cannot be altered; it holds only order identifiers.",
          ],
          ["Duration", "30 days."],
        ]}
      />
    </div>
  );
}

function CookieRows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-border rounded-lg border border-border bg-card text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="grid gap-1 px-4 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
          <dt className="font-semibold text-foreground">{term}</dt>
          <dd className="text-foreground/90">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
