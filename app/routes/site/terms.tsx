import { Link } from "react-router";
import {
  LegalPage,
  MailLink,
  legalPageLoader,
  type LegalPageContent,
  type LegalSection,
} from "#app/components/site/legal-page.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { LEGAL_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/terms";

export const loader = legalPageLoader;
export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = (args) => pageMeta(args, PAGE);

const SECTIONS: LegalSection[] = [
  {
    id: "about-these-terms",
    title: "About these terms",
    content: (
      <>
        <p>
          These terms apply to your use of the NightWatch website and to training courses booked
          through it. By using the site or making a booking you accept them. If you book on behalf
          of an organisation, you confirm that you are authorised to accept these terms for it.
        </p>
        <p>
          Dark web monitoring, consultancy engagements and File Interrogator licences are provided
          under a separate written agreement, which takes precedence over these terms where the two
          differ.
        </p>
      </>
    ),
  },
  {
    id: "using-the-site",
    title: "Using our website",
    content: (
      <>
        <p>You may use this site for lawful purposes only. You must not:</p>
        <ul>
          <li>
            attempt to gain unauthorised access to the site, its server or any connected system;
          </li>
          <li>introduce malicious code or interfere with the site's operation;</li>
          <li>submit false information or another person's details without their permission;</li>
          <li>copy or reuse our content for commercial purposes without our written consent.</li>
        </ul>
        <p>
          The information on this site is general information about fraud risks and our services. It
          is not legal advice, and you should take professional advice about your own circumstances.
        </p>
      </>
    ),
  },
  {
    id: "quotes",
    title: "Enquiries and quotes",
    content: (
      <p>
        A quote we send you is an invitation to do business, not a binding offer. It is valid for 30
        days unless it says otherwise. A contract is formed only when we confirm your order in
        writing.
      </p>
    ),
  },
  {
    id: "bookings",
    title: "Course bookings and payment",
    content: (
      <>
        <p>
          Online courses can be paid for by card at checkout or by requesting an invoice. Classroom
          courses are booked through a quote. Prices are shown in pounds sterling.
        </p>
        <ul>
          <li>
            <strong>Card payments</strong> are processed securely by Stripe. Your place is confirmed
            when the payment succeeds, and we send access details within 24 hours.
          </li>
          <li>
            <strong>Invoice requests</strong> are reviewed by our team and the invoice is sent by
            e-mail within 24 hours. Invoices are payable within 30 days, and course access is given
            once payment is received.
          </li>
        </ul>
        <p>
          You are responsible for making sure that delegate names and e-mail addresses are correct.
          Places may be transferred to a colleague at no charge by telling us before the course
          starts.
        </p>
      </>
    ),
  },
  {
    id: "cancellations",
    title: "Cancellations and changes",
    content: (
      <>
        <p>
          If you cancel a booking more than 14 days before a classroom course starts, or before you
          first access an online course, we will refund you in full. After that, we can offer a
          transfer to a later date or to a colleague instead of a refund.
        </p>
        <p>
          If you book as a consumer rather than for a business, you also have the right to cancel
          within 14 days under the Consumer Contracts (Information, Cancellation and Additional
          Charges) Regulations 2013. If you ask us to give you access to an online course within
          that period, you accept that the right to cancel ends once the course has been fully
          provided.
        </p>
        <p>
          We may occasionally need to reschedule or cancel a course, for example if the trainer is
          ill. We will tell you as soon as possible and offer another date or a full refund.
        </p>
      </>
    ),
  },
  {
    id: "partner-courses",
    title: "Partner courses",
    content: (
      <p>
        Some courses listed on this site are run by partner organisations. These are bought on the
        partner's own website and are governed by the partner's terms and privacy notice, not ours.
        We are not responsible for the content or availability of partners' websites.
      </p>
    ),
  },
  {
    id: "licences",
    title: "File Interrogator licences",
    content: (
      <p>
        File Interrogator is licensed for a year at a time and paid by invoice. A licence is for use
        by your organisation only and may not be transferred, resold or shared. The full licence
        terms are supplied with your quote.
      </p>
    ),
  },
  {
    id: "intellectual-property",
    title: "Intellectual property",
    content: (
      <p>
        The content of this site and all course materials belong to NightWatch or our licensors.
        Delegates may use course materials for their own professional development and within their
        organisation, but may not record sessions, copy materials for others or publish them without
        our written permission.
      </p>
    ),
  },
  {
    id: "liability",
    title: "Our liability",
    content: (
      <>
        <p>
          Nothing in these terms limits or excludes our liability for death or personal injury
          caused by our negligence, for fraud or fraudulent misrepresentation, or for anything else
          that cannot be limited or excluded under the law of England and Wales.
        </p>
        <p>
          Subject to that, we are not liable for indirect or consequential loss, or for loss of
          profit, revenue or data, and our total liability in connection with any booking is limited
          to the amount you paid for it. If you are a consumer, your statutory rights are not
          affected.
        </p>
      </>
    ),
  },
  {
    id: "privacy",
    title: "Your personal data",
    content: (
      <p>
        We handle personal data as described in our <Link to="/privacy">Privacy Policy</Link> and on
        our <Link to="/gdpr">GDPR page</Link>.
      </p>
    ),
  },
  {
    id: "governing-law",
    title: "Governing law",
    content: (
      <p>
        These terms are governed by the law of England and Wales, and the courts of England and
        Wales have exclusive jurisdiction, except that a consumer living in Scotland or Northern
        Ireland may also bring proceedings in their local courts.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    content: (
      <p>
        We may update these terms from time to time. The version on this page at the time you make a
        booking applies to that booking. Questions about these terms can be sent to{" "}
        <MailLink email={LEGAL_EMAIL} />.
      </p>
    ),
  },
];

const PAGE: LegalPageContent = {
  title: "Terms of Service",
  description:
    "The terms for using the NightWatch website and for booking our counter fraud training courses, including payment, cancellations, partner courses and liability.",
  intro: (
    <p>
      Please read these terms carefully. They explain how you may use our website and the conditions
      that apply when you book training with NightWatch.
    </p>
  ),
  sections: SECTIONS,
};

export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...PAGE} lastUpdated={loaderData.lastUpdated} />;
}
