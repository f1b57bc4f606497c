import { Mail, MapPin } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CONTACT_EMAIL, SERVICE_LINKS, type FooterCourse } from "#app/lib/catalogue/navigation.ts";
import type { SellerDetails } from "#app/lib/orders/seller.ts";
import { SellerDetailsLine } from "./seller-details.tsx";
import { Logo } from "./site-header.tsx";

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-foreground">
        {title}
      </h2>
      {children}
    </div>
  );
}

const footerLink = "text-sm text-muted-foreground hover:text-primary";

export function SiteFooter({
  courses,
  seller,
  newsletter,
}: {
  courses: FooterCourse[];
  /** The seller's registered details, shown under the copyright line. */
  seller?: SellerDetails;
  newsletter?: ReactNode;
}) {
  return (
    <footer className="border-t border-border bg-card/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-4">
          <Logo />
          <p className="text-sm text-muted-foreground">
            Dark web monitoring, counter fraud training and security consultancy for organisations
            that cannot afford to be the last to know.
          </p>
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Mail aria-hidden className="size-4" />
            <a href={`mailto:${CONTACT_EMAIL}`} className="hover:text-primary">
              {CONTACT_EMAIL}
            </a>
          </p>
          {/* The registered office from the configuration (SELLER_ADDRESS), not a fixed town. */}
          <address className="flex items-start gap-2 text-sm not-italic text-muted-foreground">
            <MapPin aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span data-testid="footer-address">
              {seller?.addressLines.join(", ") || "London, United Kingdom"}
            </span>
          </address>
        </div>
        <Column title="Services">
          <ul className="space-y-2">
            {SERVICE_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className={footerLink}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </Column>
        <Column title="Training">
          <ul className="space-y-2">
            <li>
              <Link to="/services/counter-fraud-training" className={footerLink}>
                Browse All Courses
              </Link>
            </li>
            {courses.map((c) => (
              <li key={c.slug}>
                <Link to={`/courses/${c.slug}`} className={footerLink}>
                  {c.title}
                </Link>
              </li>
            ))}
          </ul>
        </Column>
        <Column title="Stay Updated">
          <p className="mb-3 text-sm text-muted-foreground">
            Threat intelligence briefings and new course dates, a few times a year.
          </p>
          {newsletter}
        </Column>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
          <p>© {new Date().getFullYear()} NightWatch. All rights reserved.</p>
          <nav aria-label="Legal" className="flex gap-4">
            <Link to="/privacy" className={footerLink}>
              Privacy Policy
            </Link>
            <Link to="/terms" className={footerLink}>
              Terms of Service
            </Link>
            <Link to="/gdpr" className={footerLink}>
              GDPR
            </Link>
          </nav>
        </div>
        {seller ? (
          <div className="mx-auto max-w-7xl px-4 pb-6">
            <SellerDetailsLine
              seller={seller}
              className="text-center text-xs text-muted-foreground sm:text-left"
            />
          </div>
        ) : null}
      </div>
    </footer>
  );
}
