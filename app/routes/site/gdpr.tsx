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
import { DPO_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/gdpr";

export const loader = legalPageLoader;
export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = (args) => pageMeta(args, PAGE);

const SECTIONS: LegalSection[] = [
  {
    id: "our-commitment",
    title: "Our commitment",
    content: (
      <>
        <p>
          Protecting personal data is at the heart of what we do. NightWatch complies with the UK
          General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018. Our
          regulator is the Information Commissioner's Office (ICO).
        </p>
        <p>
          We act as a <strong>controller</strong> for the data of our website visitors, customers
          and delegates, and as a <strong>processor</strong> when we handle personal data on a
          client's behalf during a monitoring or consultancy engagement, always under a written
          contract that meets Article 28 of the UK GDPR.
        </p>
      </>
    ),
  },
  {
    id: "principles",
    title: "The principles we follow",
    content: (
      <>
        <p>Every use of personal data at NightWatch must be:</p>
        <ul>
          <li>lawful, fair and transparent;</li>
          <li>for a specified, explicit and legitimate purpose;</li>
          <li>adequate, relevant and limited to what is necessary;</li>
          <li>accurate and kept up to date;</li>
          <li>kept no longer than necessary;</li>
          <li>processed securely, with protection against loss, misuse and unauthorised access.</li>
        </ul>
        <p>
          We are accountable for meeting these principles and keep records that show how we do so.
        </p>
      </>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    content: (
      <>
        <p>You have the following rights over your personal data:</p>
        <ul>
          <li>
            <strong>Access</strong>: to receive a copy of the data we hold about you.
          </li>
          <li>
            <strong>Rectification</strong>: to have inaccurate data corrected.
          </li>
          <li>
            <strong>Erasure</strong>: to have data deleted where there is no good reason for us to
            keep it.
          </li>
          <li>
            <strong>Restriction</strong>: to ask us to limit how we use your data.
          </li>
          <li>
            <strong>Portability</strong>: to receive data you gave us in a structured,
            machine-readable format.
          </li>
          <li>
            <strong>Objection</strong>: to object to processing based on legitimate interests, and
            to direct marketing at any time.
          </li>
          <li>
            <strong>Automated decisions</strong>: not to be subject to decisions based solely on
            automated processing that significantly affect you. We make no such decisions.
          </li>
          <li>
            <strong>Withdrawing consent</strong>: where we rely on your consent, to withdraw it at
            any time.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "making-a-request",
    title: "How to make a request",
    content: (
      <>
        <p>
          Send your request to our Data Protection Officer at <MailLink email={DPO_EMAIL} />. You do
          not need to use any particular form of words. We may ask for information to confirm your
          identity before we act, so that we never disclose data to the wrong person.
        </p>
        <p>
          We respond to every request <strong>within one month</strong> of receiving it. If a
          request is complex, or you have made several, we may extend this by up to two further
          months; if so, we will tell you within the first month and explain why. Requests are free
          of charge unless they are manifestly unfounded or excessive.
        </p>
      </>
    ),
  },
  {
    id: "data-breaches",
    title: "Personal data breaches",
    content: (
      <>
        <p>
          We have a documented procedure for detecting, investigating and recording personal data
          breaches. Where a breach is likely to result in a risk to people's rights and freedoms, we
          notify the ICO <strong>within 72 hours</strong> of becoming aware of it.
        </p>
        <p>
          Where a breach is likely to result in a high risk to you, we also tell you without undue
          delay, explaining what happened, the likely consequences and what we are doing about it.
          Every breach is recorded, whether or not it is reported, so that we learn from it.
        </p>
      </>
    ),
  },
  {
    id: "dark-web-data",
    title: "Data found during dark web monitoring",
    content: (
      <>
        <p>
          Monitoring sometimes brings us into contact with personal data that criminals have stolen.
          We handle it with particular care:
        </p>
        <ul>
          <li>we observe only; we never buy data, pay criminals or engage with sellers;</li>
          <li>
            we collect only what is needed to identify the exposure and tell our client what to do;
          </li>
          <li>
            findings are shared only with the client concerned, through secure channels, and deleted
            when no longer needed for the engagement;
          </li>
          <li>
            our processing relies on legitimate interests in preventing fraud, which the UK GDPR
            recognises, and is assessed in a data protection impact assessment.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "processors-and-transfers",
    title: "Processors and international transfers",
    content: (
      <p>
        We use carefully chosen suppliers for hosting, e-mail delivery and payments. Each is bound
        by a contract that requires it to protect personal data and to act only on our instructions.
        Where data is transferred outside the UK, we rely on UK adequacy regulations or the
        International Data Transfer Agreement.
      </p>
    ),
  },
  {
    id: "security",
    title: "Security measures",
    content: (
      <ul>
        <li>Encryption of data in transit, and access controls on our systems and database.</li>
        <li>Access to personal data limited to staff who need it, with individual accounts.</li>
        <li>Data protection and security training for all staff.</li>
        <li>Regular review and testing of our technical and organisational measures.</li>
      </ul>
    ),
  },
  {
    id: "cookies",
    title: "Cookies and electronic communications",
    content: (
      <>
        <p>
          The Privacy and Electronic Communications Regulations 2003 (PECR) govern cookies and
          marketing e-mails. This site sets two strictly necessary cookies, one for signed-in staff
          and one for visitors who book a course, and no analytics or advertising cookies:
        </p>
        <CookieList />
        <p>
          We send marketing e-mails only to people who have subscribed to our newsletter, and every
          e-mail lets you unsubscribe. See our <Link to="/privacy">Privacy Policy</Link> for full
          details.
        </p>
      </>
    ),
  },
  {
    id: "complaints",
    title: "Complaints",
    content: (
      <p>
        If you have a concern about how we handle personal data, please contact our Data Protection
        Officer first. You also have the right to complain to the Information Commissioner's Office
        at <a href="https://ico.org.uk/make-a-complaint/">ico.org.uk/make-a-complaint</a> or on 0303
        123 1113.
      </p>
    ),
  },
];

const PAGE: LegalPageContent = {
  title: "GDPR Compliance",
  description:
    "How NightWatch complies with the UK GDPR and the Data Protection Act 2018: your rights, how to make a request, breach notification to the ICO and how we handle data found on the dark web.",
  intro: (
    <p>
      How NightWatch meets its obligations under UK data protection law, the rights you have over
      your personal data and how to use them.
    </p>
  ),
  sections: SECTIONS,
};

export default function Gdpr({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...PAGE} lastUpdated={loaderData.lastUpdated} />;
}
