import {
  ArrowRight,
  BriefcaseBusiness,
  GraduationCap,
  Target,
  UserCheck,
  Workflow,
} from "lucide-react";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { CheckList, FeatureGrid } from "#app/components/site/feature-card.tsx";
import { ServiceEnquirySection } from "#app/components/site/service-enquiry.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import riskAssessment from "#app/assets/illustrations/risk-assessment.svg?no-inline";
import { Section } from "#app/components/site/section.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/security-consultancy";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Security & Counter Fraud Consultancy",
    description:
      "Counter fraud and security consultancy for UK organisations: KYC and verification flows, threat analysis, staff training programmes and technology and process automation.",
  });

const CORE_SERVICES = [
  {
    icon: UserCheck,
    title: "KYC and verification flow development",
    text: "We design and review customer onboarding and verification journeys that stop impersonation and synthetic identities without driving genuine customers away, in line with your regulatory obligations.",
  },
  {
    icon: Target,
    title: "Strategic and operational threat analysis",
    text: "Assessments of the fraud and security threats facing your organisation, from board-level risk pictures to operational analysis of live attack patterns, with prioritised recommendations.",
  },
  {
    icon: GraduationCap,
    title: "Staff training programmes",
    text: "Training programmes built around your processes and the threats you actually face, from awareness for frontline teams to specialist skills for investigators and analysts.",
  },
  {
    icon: Workflow,
    title: "Technology and process automation",
    text: "Practical automation of checks, alerts and casework, so that your team spends its time on judgement rather than repetitive tasks, with the audit trail your regulators expect.",
  },
];

const APPROACH = [
  "An initial conversation to understand your organisation, your risks and what success looks like",
  "A written proposal with clear scope, deliverables and timescales",
  "Delivery by experienced practitioners who work alongside your team",
  "A final report and handover, so that improvements last after we leave",
];

/** The hero's illustration: illustrative, no real data, names or figures. */
const ILLUSTRATION = {
  src: riskAssessment,
  alt: "Illustration: a risk matrix with a risk reduced, beside the steps of a customer verification journey",
  width: 560,
  height: 440,
};

export default function SecurityConsultancy() {
  return (
    <>
      <PageHero
        eyebrow="Security consultancy"
        illustration={ILLUSTRATION}
        icon={BriefcaseBusiness}
        title="Counter fraud and security consultancy that fits how you work"
        lead="Independent, practical advice from people who have investigated fraud and defended organisations against it. We help you close the gaps criminals exploit, from customer onboarding to internal processes."
      >
        <a href="#consultation-form" className={buttonVariants({ size: "lg" })}>
          Schedule Consultation
          <ArrowRight aria-hidden />
        </a>
      </PageHero>

      <Section
        eyebrow="Core services"
        title="How we can help"
        lead="Four areas where our consultancy makes the biggest difference."
      >
        <FeatureGrid items={CORE_SERVICES} className="grid gap-6 md:grid-cols-2" />
      </Section>

      <Section
        tone="muted"
        eyebrow="Our approach"
        title="Clear scope, practical results"
        lead="Every engagement is scoped to your needs and budget. A typical engagement follows four steps."
      >
        <CheckList items={APPROACH} className="max-w-3xl" />
      </Section>

      <ServiceEnquirySection
        id="consultation"
        formId="consultation-form"
        service="security-consultancy"
        title="Schedule a consultation"
        lead="Tell us about the challenge you are facing. We will reply within 24 hours to arrange an initial conversation, with no obligation."
        panelTitle="Tell us about your challenge"
        panelDescription="Your enquiry is pre-set to security consultancy."
        panelClassName="[&_#consultation-form]:scroll-mt-20"
      />
    </>
  );
}
