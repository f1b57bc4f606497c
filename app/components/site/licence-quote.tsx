import { ChevronDown } from "lucide-react";
import { useEffect, useState } from "react";
import { useActionData } from "react-router";
import { LicenceForm } from "#app/components/forms/licence-form.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import { FormPanel } from "./form-panel.tsx";

/**
 * 'Get License Quote' and the licence form it reveals. Before scripts run (or without them)
 * the toggle is a link that reloads the page with `?licence=1`, which the loader turns into
 * `initiallyOpen`; once hydrated it becomes a disclosure button.
 */
export function LicenceQuote({
  initiallyOpen,
  openHref,
  closeHref,
}: {
  initiallyOpen: boolean;
  /** Where the no-script link goes to show the form, e.g. '?licence=1#licence-form'. */
  openHref: string;
  /** Where it goes to hide it again. */
  closeHref: string;
}) {
  // A plain post of the form answers with the form open, whatever the address says, so the
  // answer (errors or the success panel) is on the page the fragment lands on.
  const actionData = useActionData() as { form?: unknown } | undefined;
  const answered = actionData?.form === "licence";
  const [open, setOpen] = useState(initiallyOpen || answered);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const label = (
    <>
      Get License Quote
      <ChevronDown aria-hidden className={cn("transition-transform", open && "rotate-180")} />
    </>
  );
  const className = buttonVariants({ size: "lg" });

  return (
    <div>
      {hydrated ? (
        <button
          type="button"
          className={className}
          aria-expanded={open}
          aria-controls="licence-quote"
          onClick={() => setOpen((value) => !value)}
        >
          {label}
        </button>
      ) : (
        <a href={open ? closeHref : openHref} className={className}>
          {label}
        </a>
      )}
      {/* The scroll margin keeps the panel's heading clear of the sticky header when the
          no-script link jumps to the form. */}
      <div id="licence-quote" hidden={!open} className="mt-8 [&_#licence-form]:scroll-mt-20">
        <FormPanel
          headingLevel="h3"
          title="Request a licence quote"
          description="Tell us how many licences you need and how you plan to use File Interrogator. Our licensing team will confirm your quote within 2 business days."
        >
          <LicenceForm id="licence-form" />
        </FormPanel>
      </div>
    </div>
  );
}
