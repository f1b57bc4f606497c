import {
  ArrowRight,
  ChartColumn,
  FileChartColumn,
  MessagesSquare,
  Radar,
  Siren,
} from "lucide-react";
import { Link } from "react-router";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { CheckList, FeatureGrid } from "#app/components/site/feature-card.tsx";
import { ServiceEnquirySection } from "#app/components/site/service-enquiry.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import monitoringAlert from "#app/assets/illustrations/monitoring-alert.svg?no-inline";
import { Section } from "#app/components/site/section.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/dark-web-monitoring";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Dark Web Monitoring",
    description:
      "Bespoke dark web monitoring for UK organisations: compromised credentials, customer and card data, brand mentions and fraud services aimed at you, with emergency alerts and monthly reporting.",
  });

const CAPABILITIES = [
  "Compromised staff and customer credentials appearing in breach dumps, combolists and infostealer logs",
  "Payment card, bank account and identity document data offered on criminal marketplaces",
  "Mentions of your organisation, domains, products and senior people in dark web forums and encrypted channels",
  "Phishing kits, impersonation sites and fraud-as-a-service offerings aimed at your customers",
  "Leak-site postings and ransomware claims involving you or your key suppliers",
];

const INCLUSIONS = [
  {
    icon: Siren,
    title: "Emergency alerts",
    text: "When we find something that needs action now, such as live customer data or credentials for a privileged account, we alert your nominated contacts straight away, with the evidence and our recommended next steps.",
  },
  {
    icon: ChartColumn,
    title: "Monthly reporting",
    text: "A clear monthly report of what we found, what it means and what has changed since the last one, written for both security teams and senior managers.",
  },
  {
    icon: MessagesSquare,
    title: "Expert consultations",
    text: "Regular sessions with our analysts to talk through findings, answer questions and adjust what we watch as your business and the threats change.",
  },
  {
    icon: FileChartColumn,
    title: "Strategic reports",
    text: "Periodic assessments of the criminal activity relevant to your sector, so that you can plan controls, training and investment ahead of the threat.",
  },
];

/** The hero's illustration: illustrative, no real data, names or figures. */
const ILLUSTRATION = {
  src: monitoringAlert,
  alt: "Illustration: a monitoring alert flagging a leaked password, beside a radar sweep",
  width: 560,
  height: 440,
};

export default function DarkWebMonitoring() {
  return (
    <>
      <PageHero
        eyebrow="Dark web monitoring"
        illustration={ILLUSTRATION}
        icon={Radar}
        title="Find out your data is for sale before criminals use it"
        lead="Bespoke threat intelligence for financial institutions, KYC teams and any organisation that holds valuable data. Working with a specialist data partner, we watch the marketplaces, forums and channels where stolen data is traded, and tell you what matters and what to do about it."
      >
        <a href="#monitoring-form" className={buttonVariants({ size: "lg" })}>
          Get Custom Monitoring Plan
          <ArrowRight aria-hidden />
        </a>
        <Link
          to={quoteLink("dark-web-monitoring")}
          className={buttonVariants({ variant: "outline", size: "lg" })}
        >
          Request a Quote
        </Link>
      </PageHero>

      <Section
        eyebrow="What we monitor"
        title="Intelligence tailored to your organisation"
        lead="Every monitoring plan starts from your assets and risks: your domains, brands, products, people and the data you hold. We then watch the sources most likely to expose them."
      >
        <div className="grid gap-10 lg:grid-cols-2 lg:items-start">
          <CheckList items={CAPABILITIES} />
          <div className="rounded-lg border border-border bg-card p-6">
            <h3 className="text-lg font-semibold">Lawful, careful collection</h3>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">
              We observe; we never buy stolen data, pay criminals or engage with sellers. Findings
              are minimised, shared only with you through secure channels and handled in line with
              the UK GDPR and the Data Protection Act 2018.
            </p>
          </div>
        </div>
      </Section>

      <Section
        tone="muted"
        eyebrow="Included in every plan"
        title="What you get"
        lead="Monitoring is only useful if you can act on it. Every plan includes four things."
      >
        <FeatureGrid items={INCLUSIONS} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <ServiceEnquirySection
        id="monitoring-plan"
        formId="monitoring-form"
        service="dark-web-monitoring"
        title="Get a custom monitoring plan"
        lead="Tell us about your organisation and what worries you most. We will reply within 24 hours to arrange a short scoping call, then propose a monitoring plan and a quote."
        panelTitle="Tell us what to watch"
        panelDescription="Your enquiry is pre-set to dark web monitoring."
        panelClassName="[&_#monitoring-form]:scroll-mt-20"
      />
    </>
  );
}
