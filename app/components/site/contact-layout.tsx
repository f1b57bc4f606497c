import { Clock, Mail, MapPin } from "lucide-react";
import type { ReactNode } from "react";
import { CONTACT_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { FormPanel } from "./form-panel.tsx";
import { HeroBackdrop } from "./page-hero.tsx";

/**
 * The contact and quote pages: the page heading and how to reach us on one side, the form
 * over a patterned backdrop on the other (drawn in CSS, no background photo to download).
 */
export function ContactLayout({
  eyebrow,
  title,
  lead,
  children,
  formTitle,
  formDescription,
  form,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  /** Extra copy under the contact details. */
  children?: ReactNode;
  formTitle: string;
  formDescription: string;
  form: ReactNode;
}) {
  return (
    <section aria-labelledby="page-title" className="relative isolate overflow-hidden">
      <HeroBackdrop />
      {/* Source order heading, form, details: on a phone the form comes straight after the
          introduction; from 1024 px the form sits beside both. */}
      <div className="mx-auto grid max-w-7xl gap-x-12 gap-y-10 px-4 py-16 sm:py-24 lg:grid-cols-[2fr_3fr] lg:grid-rows-[auto_1fr]">
        <div className="lg:col-start-1 lg:row-start-1">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
          <h1 id="page-title" className="mt-2 text-4xl font-bold tracking-tight text-balance">
            {title}
          </h1>
          <p className="mt-6 text-lg text-pretty text-muted-foreground">{lead}</p>
        </div>
        <FormPanel
          title={formTitle}
          description={formDescription}
          className="lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start"
        >
          {form}
        </FormPanel>
        <div className="lg:col-start-1 lg:row-start-2">
          <h2 className="text-lg font-semibold">Other ways to reach us</h2>
          <ul className="mt-4 space-y-4">
            <li className="flex gap-3">
              <Mail aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
              <span>
                <span className="block text-sm text-muted-foreground">E-mail</span>
                <a
                  href={`mailto:${CONTACT_EMAIL}`}
                  className="font-medium underline underline-offset-4 hover:text-primary"
                >
                  {CONTACT_EMAIL}
                </a>
              </span>
            </li>
            <li className="flex gap-3">
              <MapPin aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
              <span>
                <span className="block text-sm text-muted-foreground">Location</span>
                <span className="font-medium">London, United Kingdom</span>
              </span>
            </li>
            <li className="flex gap-3">
              <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
              <span>
                <span className="block text-sm text-muted-foreground">Response time</span>
                <span className="font-medium">Within 24 hours</span>
              </span>
            </li>
          </ul>
          {children ? <div className="mt-10 text-muted-foreground">{children}</div> : null}
        </div>
      </div>
    </section>
  );
}
