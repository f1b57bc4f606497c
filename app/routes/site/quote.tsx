import { Link } from "react-router";
import { EnquiryForm } from "#app/components/forms/enquiry-form.tsx";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { ContactLayout } from "#app/components/site/contact-layout.tsx";
import { CheckList } from "#app/components/site/feature-card.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/quote";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { serviceFromSearch } from "#app/lib/inquiries/schemas.ts";

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

/**
 * No service is chosen for the visitor unless the link they followed names one (e.g. "Custom
 * Training Quote" → `?service=counter-fraud-training`): the header's Contact button leads here,
 * and a general contact must not be filed as a training enquiry. Depends on the URL alone, so the
 * page stays shareable.
 */
export function loader({ request }: Route.LoaderArgs) {
  return { service: serviceFromSearch(new URL(request.url).searchParams) };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Request a Quote",
    description:
      "Request a quote for custom counter fraud training, classroom courses for your team, dark web monitoring or security consultancy. NightWatch replies within 24 hours.",
  });

export default function Quote({ loaderData }: Route.ComponentProps) {
  return (
    <ContactLayout
      eyebrow="Contact and custom training"
      title="Request a Quote"
      lead="Tell us about your team and what you need. We tailor classroom courses, online training and complete counter-fraud programmes to your sector, and quote for monitoring and consultancy work too."
      formTitle="Tell us what you need"
      formDescription="Our training team will come back to you within 24 hours with questions or a proposal."
      form={<EnquiryForm id="quote-form" defaultService={loaderData.service ?? undefined} />}
    >
      <h2 className="text-lg font-semibold text-foreground">Helpful details to include</h2>
      <CheckList
        className="mt-4"
        items={[
          "How many people need training, and their roles",
          "Classroom (at your premises or ours) or online delivery",
          "Topics or risks you want the training to cover",
          "Preferred dates and any deadline you are working to",
        ]}
      />
      <p className="mt-6">
        Prefer to choose from our scheduled courses?{" "}
        <Link
          to="/services/counter-fraud-training"
          className="text-foreground underline underline-offset-4 hover:text-primary"
        >
          Browse all training courses
        </Link>
        .
      </p>
    </ContactLayout>
  );
}
