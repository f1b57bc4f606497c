import {
  ArrowRight,
  BriefcaseBusiness,
  FileSearch,
  GraduationCap,
  Mail,
  MapPin,
  Radar,
  ShieldCheck,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import { coursePicture } from "#server/catalogue/courses.server.ts";
import { listPromotedCourses } from "#server/catalogue/navigation.server.ts";
import { logFailure } from "#server/db/errors.server.ts";
import { EnquiryForm } from "#app/components/forms/enquiry-form.tsx";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { CheckList } from "#app/components/site/feature-card.tsx";
import { FormPanel } from "#app/components/site/form-panel.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import homeOverview from "#app/assets/illustrations/home-overview.svg?no-inline";
import { DeferredParticles } from "#app/components/site/particles.tsx";
import {
  PromotedCourseList,
  type PromotedCourseItem,
} from "#app/components/site/promoted-course-list.tsx";
import { Section } from "#app/components/site/section.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { CONTACT_EMAIL } from "#app/lib/catalogue/navigation.ts";
import { jsonLd, pageMeta, publicUrlFrom } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/home";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";

export async function loader() {
  let courses: PromotedCourseItem[] = [];
  try {
    courses = (await listPromotedCourses()).map((course) => ({
      id: course.id,
      slug: course.slug,
      title: course.title,
      shortDescription: course.shortDescription,
      price: course.price,
      durationHours: course.durationHours,
      imageUrl: coursePicture(course).url,
    }));
  } catch (error) {
    // The rest of the home page is still worth showing: the section says no courses instead.
    logFailure(error, {}, "could not load the home page training courses");
  }
  return { courses };
}

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) => {
  const origin = publicUrlFrom(args);
  return [
    ...pageMeta(args, {
      title: "NightWatch | Dark Web Monitoring & Counter Fraud Training",
      description:
        "UK dark web monitoring, counter fraud training, security consultancy and File Interrogator software for financial institutions, KYC teams, law enforcement and counter-fraud teams.",
    }),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: "NightWatch",
      url: `${origin}/`,
      email: CONTACT_EMAIL,
      description:
        "Dark web monitoring, counter fraud training and security consultancy for UK organisations.",
      address: { "@type": "PostalAddress", addressLocality: "London", addressCountry: "GB" },
      areaServed: "GB",
    }),
  ];
};

interface ServiceSummary {
  to: string;
  icon: LucideIcon;
  title: string;
  description: string;
  tags: [string, string, string];
}

const SERVICES: ServiceSummary[] = [
  {
    to: "/services/dark-web-monitoring",
    icon: Radar,
    title: "Dark Web Monitoring",
    description:
      "Bespoke threat intelligence that finds your organisation's compromised data, credentials and brand mentions on criminal marketplaces and forums.",
    tags: ["Continuous monitoring", "Emergency alerts", "Monthly reporting"],
  },
  {
    to: "/services/counter-fraud-training",
    icon: GraduationCap,
    title: "Counter Fraud Training",
    description:
      "Classroom and online courses, delivered by practitioners, for frontline staff, investigators and managers — exclusive courses and courses with partner bodies.",
    tags: ["Classroom & online", "Partner courses", "Bespoke programmes"],
  },
  {
    to: "/services/security-consultancy",
    icon: BriefcaseBusiness,
    title: "Security Consultancy",
    description:
      "Practical counter-fraud and security advice: verification journeys, threat assessments, staff training programmes and process automation.",
    tags: ["KYC & verification", "Threat analysis", "Automation"],
  },
  {
    to: "/services/file-interrogator",
    icon: FileSearch,
    title: "File Interrogator",
    description:
      "Offline software that reveals manipulation and hidden data in documents, images and other files, sold on annual licences.",
    tags: ["Metadata analysis", "Error level analysis", "Fully offline"],
  },
];

/** Decorative: the four services around a shield (they are listed in words below). */
const ILLUSTRATION = {
  src: homeOverview,
  alt: "",
  width: 560,
  height: 480,
};

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {/* The particles fill this box behind the hero's transparent section. */}
      <div className="relative isolate overflow-hidden">
        <DeferredParticles />
        <PageHero
          eyebrow="UK threat intelligence and training"
          illustration={ILLUSTRATION}
          icon={ShieldCheck}
          title={
            <>
              Dark web monitoring and <span className="text-primary">counter fraud training</span>{" "}
              for UK organisations
            </>
          }
          lead="NightWatch finds your compromised data before criminals use it, and trains your people to recognise and stop fraud. We work with financial institutions, KYC teams, law enforcement and counter-fraud teams across the UK."
        >
          <a href="#contact" className={buttonVariants({ size: "lg" })}>
            Get in Touch
            <ArrowRight aria-hidden />
          </a>
          <a href="#services" className={buttonVariants({ variant: "outline", size: "lg" })}>
            Explore Our Services
          </a>
        </PageHero>
      </div>

      <section id="contact" aria-labelledby="about-title">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:py-20 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">
              About NightWatch
            </p>
            <h2 id="about-title" className="mt-2 text-3xl font-bold tracking-tight">
              Intelligence-led protection against fraud
            </h2>
            <div className="mt-4 space-y-4 text-lg text-muted-foreground">
              <p>
                Fraud and data theft rarely start inside your own systems. Stolen credentials,
                customer records and identity documents are bought and sold in places most
                organisations never see. We watch those places for you, and we make sure your staff
                know what to do with what we find.
              </p>
              <p>
                Our team brings experience from fraud investigation, financial crime compliance and
                cyber threat intelligence. We keep our advice practical and proportionate, and we
                work within UK law: we observe, we never buy stolen data or deal with sellers.
              </p>
            </div>
            <CheckList
              className="mt-8"
              items={[
                "Replies to every enquiry within 24 hours",
                "Services tailored to your sector, size and risk",
                "Based in London, working with organisations across the UK",
              ]}
            />
            <ul className="mt-8 space-y-3 text-sm text-muted-foreground">
              <li className="flex items-center gap-2">
                <Mail aria-hidden className="size-4 text-primary" />
                <a
                  href={`mailto:${CONTACT_EMAIL}`}
                  className="text-foreground underline underline-offset-4 hover:text-primary"
                >
                  {CONTACT_EMAIL}
                </a>
              </li>
              <li className="flex items-center gap-2">
                <MapPin aria-hidden className="size-4 text-primary" />
                London, United Kingdom
              </li>
            </ul>
          </div>
          <FormPanel
            headingLevel="h3"
            title="Send us an enquiry"
            description="Tell us what you need and we will reply within 24 hours."
          >
            <EnquiryForm id="contact-form" />
          </FormPanel>
        </div>
      </section>

      <Section
        tone="muted"
        eyebrow="Dark web monitoring"
        title="Know when your data is for sale"
        lead="We monitor dark web marketplaces, forums, leak sites and encrypted channels for your organisation's credentials, customer data, brand and people, working with a specialist threat-intelligence data partner. When something matters, you hear from us straight away, with advice on what to do next."
      >
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr] lg:items-start">
          <CheckList
            items={[
              "Compromised staff and customer credentials",
              "Payment card, account and identity data offered for sale",
              "Mentions of your brand, domains and senior people in criminal forums",
              "Phishing kits and impersonation services aimed at your customers",
            ]}
          />
          <div className="flex flex-wrap gap-3">
            <Link to="/services/dark-web-monitoring" className={buttonVariants()}>
              Explore Dark Web Monitoring
              <ArrowRight aria-hidden />
            </Link>
            <Link
              to={quoteLink("dark-web-monitoring")}
              className={buttonVariants({ variant: "outline" })}
            >
              Request a Quote
            </Link>
          </div>
        </div>
      </Section>

      <Section
        eyebrow="Counter fraud training"
        title="Training that stops fraud at the front line"
        lead="Our own courses, written and delivered by practitioners, for staff who handle customers, payments and investigations. Online or in the classroom, at our venue or yours."
      >
        <PromotedCourseList courses={loaderData.courses} />
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/services/counter-fraud-training" className={buttonVariants()}>
            View All Courses
            <ArrowRight aria-hidden />
          </Link>
          <Link
            to={quoteLink("counter-fraud-training")}
            className={buttonVariants({ variant: "outline" })}
          >
            Request Custom Training
          </Link>
        </div>
      </Section>

      <Section
        id="services"
        tone="muted"
        eyebrow="What we do"
        title="Our Services"
        lead="Four ways we help organisations prevent, detect and respond to fraud."
      >
        <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4">
          {SERVICES.map((service) => (
            <li
              key={service.to}
              className="flex flex-col rounded-lg border border-border bg-card p-6"
            >
              <span className="inline-flex size-12 items-center justify-center rounded-md bg-primary/10 text-primary">
                <service.icon aria-hidden className="size-6" />
              </span>
              <h3 className="mt-4 text-lg font-semibold">{service.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">
                {service.description}
              </p>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${service.title} features`}>
                {service.tags.map((tag) => (
                  <li
                    key={tag}
                    className="rounded-full border border-border bg-secondary px-2.5 py-0.5 text-xs font-medium text-secondary-foreground"
                  >
                    {tag}
                  </li>
                ))}
              </ul>
              <Link
                to={service.to}
                className="mt-auto inline-flex items-center gap-1 pt-6 text-sm font-semibold text-primary hover:underline hover:underline-offset-4"
              >
                Learn More<span className="sr-only"> about {service.title}</span>
                <ArrowRight aria-hidden className="size-4" />
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="cta-title">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
          <div className="rounded-2xl border border-primary/30 bg-[radial-gradient(ellipse_at_top_left,rgb(34_211_238/0.14),transparent_60%)] bg-card px-6 py-12 text-center sm:px-12">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance">
              Ready to strengthen your defences against fraud?
            </h2>
            <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
              Talk to us about monitoring, training or consultancy. We will listen first, then
              propose only what your organisation needs.
            </p>
            <Link to="/contact" className={cn(buttonVariants({ size: "lg" }), "mt-8")}>
              Contact Us
              <ArrowRight aria-hidden />
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
