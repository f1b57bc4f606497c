import type { ReactNode } from "react";
import { EnquiryForm } from "#app/components/forms/enquiry-form.tsx";
import { FormPanel } from "#app/components/site/form-panel.tsx";
import type { ServiceInterest } from "#app/lib/inquiries/schemas.ts";

/**
 * A service page's closing section: what happens after an enquiry, beside the enquiry form
 * pre-set to that service. The hero's button links to the form by `formId`.
 */
export function ServiceEnquirySection({
  id,
  formId,
  service,
  title,
  lead,
  panelTitle,
  panelDescription,
  panelClassName,
}: {
  id: string;
  formId: string;
  service: ServiceInterest;
  title: string;
  lead: ReactNode;
  panelTitle: string;
  panelDescription: string;
  /**
   * The scroll margin that keeps the panel's heading clear of the sticky header when the hero
   * link jumps to the form, written out whole (`[&_#<formId>]:scroll-mt-20`) so Tailwind finds it.
   */
  panelClassName: string;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:py-20 lg:grid-cols-[2fr_3fr]">
        <div>
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">Get started</p>
          <h2 id={`${id}-title`} className="mt-2 text-3xl font-bold tracking-tight">
            {title}
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">{lead}</p>
        </div>
        <FormPanel title={panelTitle} description={panelDescription} className={panelClassName}>
          <EnquiryForm id={formId} defaultService={service} />
        </FormPanel>
      </div>
    </section>
  );
}
