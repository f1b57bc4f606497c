import { Link } from "react-router";
import {
  CookieList,
  LegalPage,
  MailLink,
  legalPageLoader,
  type LegalPageContent,
  type LegalSection,
} from "#app/components/site/legal-page.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { DPO_EMAIL, PRIVACY_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/privacy";

export const loader = legalPageLoader;
export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = (args) => pageMeta(args, PAGE);

const SECTIONS: LegalSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    content: (
      <>
        <p>
          NightWatch provides dark web monitoring, counter fraud training, security consultancy and
          the File Interrogator software to organisations in the United Kingdom. We are based in
          London.
        </p>
        <p>
          For the personal data described in this policy we are the <strong>controller</strong>: we
          decide why and how it is used. Questions about this policy can be sent to{" "}
          <MailLink email={PRIVACY_EMAIL} />. You can reach our Data Protection Officer at{" "}
          <MailLink email={DPO_EMAIL} />.
        </p>
        <p>
          When we process personal data on a client's behalf as part of a monitoring or consultancy
          engagement, the client is the controller and we act as its processor under a written data
          processing agreement. This policy does not cover that processing; the client's own privacy
          notice does.
        </p>
      </>
    ),
  },
  {
    id: "data-we-collect",
    title: "The personal data we collect",
    content: (
      <>
        <p>We collect only what we need for the purposes set out in section 3:</p>
        <ul>
          <li>
            <strong>Enquiries and quote requests</strong>: your name, work e-mail address, telephone
            number, organisation, the service you are interested in and your message.
          </li>
          <li>
            <strong>Software licence requests</strong>: your contact details, organisation, the
            number of licences required and any details you give us about your intended use.
          </li>
          <li>
            <strong>Course bookings</strong>: the billing contact's name, e-mail address,
            organisation and billing address, the names and e-mail addresses of delegates, and the
            status of the payment. Card payments are taken by our payment provider, Stripe; we never
            see or store your full card number.
          </li>
          <li>
            <strong>Newsletter</strong>: your e-mail address, when you subscribed and where on the
            site you did so.
          </li>
          <li>
            <strong>Technical data</strong>: when you request a page our servers record the request,
            including your IP address, the page requested and the time, so that we can keep the site
            secure and working.
          </li>
        </ul>
        <p>
          We do not ask for special category data (such as health information) through this website.
          Please do not include it in a message.
        </p>
      </>
    ),
  },
  {
    id: "how-we-use-it",
    title: "How we use it and our lawful bases",
    content: (
      <>
        <p>Under the UK GDPR we must have a lawful basis for each use of personal data:</p>
        <ul>
          <li>
            <strong>Answering enquiries and preparing quotes</strong>: our legitimate interest in
            responding to people who contact us, or taking steps at your request before entering
            into a contract.
          </li>
          <li>
            <strong>Delivering courses, licences and services you buy</strong>: performance of a
            contract.
          </li>
          <li>
            <strong>Invoicing and keeping accounting records</strong>: compliance with our legal
            obligations.
          </li>
          <li>
            <strong>Sending our newsletter</strong>: your consent, which you can withdraw at any
            time.
          </li>
          <li>
            <strong>Keeping the website secure and preventing misuse</strong>: our legitimate
            interest in protecting our systems and our users.
          </li>
        </ul>
        <p>We do not make decisions about you based solely on automated processing.</p>
      </>
    ),
  },
  {
    id: "marketing",
    title: "Marketing e-mails",
    content: (
      <p>
        In line with the Privacy and Electronic Communications Regulations 2003 (PECR), we only send
        our newsletter to people who have asked to receive it. Every newsletter contains a way to
        unsubscribe, and you can also ask us to stop by writing to{" "}
        <MailLink email={PRIVACY_EMAIL} />. We never sell or rent our mailing list.
      </p>
    ),
  },
  {
    id: "sharing",
    title: "Who we share it with",
    content: (
      <>
        <p>We share personal data only where necessary, with:</p>
        <ul>
          <li>
            service providers who host our website and database, deliver our e-mail and process card
            payments (Stripe), each bound by contract to use the data only on our instructions;
          </li>
          <li>
            training partners, where you book one of their courses: the booking is made on the
            partner's own website and is governed by its privacy notice;
          </li>
          <li>our professional advisers, such as accountants, auditors and lawyers;</li>
          <li>
            the police, regulators or courts, where the law requires it or to prevent or detect
            crime.
          </li>
        </ul>
        <p>We do not sell personal data.</p>
      </>
    ),
  },
  {
    id: "international-transfers",
    title: "International transfers",
    content: (
      <p>
        Some of our service providers may process data outside the United Kingdom. When they do, we
        make sure the transfer is protected: the destination is covered by UK adequacy regulations,
        or the transfer is made under the International Data Transfer Agreement or the UK Addendum
        to the EU Standard Contractual Clauses.
      </p>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    content: (
      <ul>
        <li>
          Enquiries, quote requests and quotations not accepted: up to two years after our last
          contact with you.
        </li>
        <li>
          File Interrogator licences: the contact&apos;s name and e-mail address up to two years
          after the licence ends; the licence itself is kept with our accounts.
        </li>
        <li>
          Booking, invoicing and payment records: six years after the end of the financial year they
          relate to, as UK tax law requires.
        </li>
        <li>Newsletter subscriptions: until you unsubscribe.</li>
        <li>Server request logs: no longer than 90 days, unless needed to investigate misuse.</li>
      </ul>
    ),
  },
  {
    id: "security",
    title: "How we protect it",
    content: (
      <p>
        All traffic to this site is encrypted in transit. Access to personal data is limited to
        staff who need it for their work, administrator accounts are protected by strong,
        individually hashed passwords, and we review our security measures regularly. Our approach
        to personal data breaches is described on our <Link to="/gdpr">GDPR page</Link>.
      </p>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    content: (
      <>
        <p>
          This site sets <strong>two cookies</strong>: one for signed-in staff, and one for visitors
          who book a course through our checkout. Other visitors to the public pages receive no
          cookies from us. We use no analytics, advertising or tracking cookies, and no third-party
          cookies are set through our pages.
        </p>
        <CookieList />
        <p>
          Because these cookies are strictly necessary for a service the member of staff or the
          buyer has asked for, PECR does not require consent for them. If you pay for a course by
          card you are taken to a payment page hosted by Stripe, and if you buy a partner's course
          you are taken to the partner's website; those sites set their own cookies, explained in
          their own policies.
        </p>
      </>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    content: (
      <>
        <p>Under the UK GDPR you have the right to:</p>
        <ul>
          <li>access the personal data we hold about you;</li>
          <li>have inaccurate data corrected and incomplete data completed;</li>
          <li>have your data erased in certain circumstances;</li>
          <li>restrict or object to our use of your data, including for direct marketing;</li>
          <li>receive data you gave us in a portable format;</li>
          <li>withdraw consent at any time, where we rely on consent.</li>
        </ul>
        <p>
          To exercise a right, write to <MailLink email={DPO_EMAIL} />. There is normally no charge,
          and we answer within one month. More detail is on our <Link to="/gdpr">GDPR page</Link>.
        </p>
      </>
    ),
  },
  {
    id: "complaints",
    title: "Complaints",
    content: (
      <p>
        If you are unhappy with how we have handled your data, please tell us first so that we can
        put it right. You also have the right to complain to the Information Commissioner's Office
        (ICO), the UK's data protection regulator, at{" "}
        <a href="https://ico.org.uk/make-a-complaint/">ico.org.uk/make-a-complaint</a> or on 0303
        123 1113.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    content: (
      <p>
        We review this policy regularly and update it when our practices or the law change. The date
        at the top of the page shows when it was last reviewed.
      </p>
    ),
  },
];

const PAGE: LegalPageContent = {
  title: "Privacy Policy",
  description:
    "How NightWatch collects, uses, shares and protects personal data under the UK GDPR and the Data Protection Act 2018, the cookies this site sets and your rights.",
  intro: (
    <p>
      This policy explains what personal data NightWatch collects through this website and in
      providing our services, why we use it, who we share it with and the rights you have under the
      UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.
    </p>
  ),
  sections: SECTIONS,
};

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...PAGE} lastUpdated={loaderData.lastUpdated} />;
}
