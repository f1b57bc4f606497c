import { Link } from "react-router";
import { EnquiryForm } from "#app/components/forms/enquiry-form.tsx";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { ContactLayout } from "#app/components/site/contact-layout.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/contact";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Contact Us",
    description:
      "Contact NightWatch about dark web monitoring, counter fraud training, security consultancy or File Interrogator licences. We reply to every enquiry within 24 hours.",
  });

export default function Contact() {
  return (
    <ContactLayout
      eyebrow="Contact"
      title="Contact Us"
      lead="Whether you need to know if your data is exposed, want to train your team or have a question about File Interrogator, send us a message. A member of our team will reply within 24 hours."
      formTitle="Send us a message"
      formDescription="We use your details only to answer your enquiry."
      form={<EnquiryForm id="contact-form" />}
    >
      <p>
        Looking for a training quote for your team?{" "}
        <Link
          to="/quote"
          className="text-foreground underline underline-offset-4 hover:text-primary"
        >
          Request a custom training quote
        </Link>
        . Read how we handle your details in our{" "}
        <Link
          to="/privacy"
          className="text-foreground underline underline-offset-4 hover:text-primary"
        >
          Privacy Policy
        </Link>
        .
      </p>
    </ContactLayout>
  );
}
