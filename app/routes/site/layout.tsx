import { Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import { config } from "#server/config.server.ts";
import { loadSiteNavigation } from "#server/catalogue/navigation.server.ts";
import { NewsletterForm } from "#app/components/forms/newsletter-form.tsx";
import { SiteFooter } from "#app/components/site/site-footer.tsx";
import { SiteHeader } from "#app/components/site/site-header.tsx";
import type { SellerDetails } from "#app/lib/orders/seller.ts";
import type { Route } from "./+types/layout";

export async function loader() {
  return {
    ...(await loadSiteNavigation()),
    publicUrl: config.publicUrl,
    seller: sellerDetails(),
  };
}

/** What the footer and legal pages say about the seller (static configuration, so cacheable). */
function sellerDetails(): SellerDetails {
  const { legalName, addressLines, companyNumber, vatNumber, icoNumber } = config.seller;
  return {
    legalName,
    addressLines,
    companyNumber: companyNumber ?? null,
    vatNumber: vatNumber ?? null,
    icoNumber: icoNumber ?? null,
  };
}

// The menus change only when an admin edits courses; navigating the site need not reload them.
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod ? defaultShouldRevalidate : false;
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <SiteHeader trainingMenu={loaderData.trainingMenu} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter
        courses={loaderData.footerCourses}
        seller={loaderData.seller}
        newsletter={<NewsletterForm />}
      />
    </div>
  );
}
