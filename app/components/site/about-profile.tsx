import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { TrainerPhoto } from "#app/components/site/course-details.tsx";
import { HeroBackdrop } from "#app/components/site/page-hero.tsx";
import { PlainText } from "#app/components/site/plain-text.tsx";
import { useSellerDetails } from "#app/components/site/seller-details.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { sellerFacts } from "#app/lib/orders/seller.ts";
import type { PublicAboutPage } from "#app/lib/site/about.ts";

/**
 * /about once staff have published the About profile (app/routes/site/about.tsx): their story,
 * the trainers with their credentials, accreditations and partner bodies — each only when
 * entered — and the seller's registered details as the configuration has them.
 */
export function AboutProfile({ about }: { about: Extract<PublicAboutPage, { published: true }> }) {
  const seller = useSellerDetails();
  return (
    <>
      <section
        aria-labelledby="page-title"
        className="relative isolate overflow-hidden border-b border-border"
      >
        <HeroBackdrop />
        <div className="mx-auto max-w-3xl px-4 py-16 sm:py-24">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">
            About NightWatch
          </p>
          <h1 id="page-title" className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">
            Who we are
          </h1>
          <PlainText text={about.story} className="mt-6 text-lg" />
        </div>
      </section>

      <div className="mx-auto grid max-w-5xl gap-14 px-4 py-14">
        {about.trainers.length > 0 ? (
          <section aria-labelledby="about-trainers">
            <h2 id="about-trainers" className="text-2xl font-semibold tracking-tight">
              Our trainers
            </h2>
            <ul className="mt-6 grid gap-4 md:grid-cols-2">
              {about.trainers.map((trainer) => (
                <li
                  key={trainer.id}
                  data-testid="about-trainer"
                  className="flex gap-4 rounded-lg border border-border bg-card p-5"
                >
                  <TrainerPhoto trainer={trainer} />
                  <div className="min-w-0">
                    <h3 className="font-semibold">{trainer.name}</h3>
                    {trainer.role ? (
                      <p className="text-sm text-muted-foreground">{trainer.role}</p>
                    ) : null}
                    {trainer.bio ? <PlainText text={trainer.bio} className="mt-2 text-sm" /> : null}
                    {trainer.credentials ? (
                      <div className="mt-3">
                        <h4 className="text-sm font-medium">Credentials</h4>
                        <PlainText text={trainer.credentials} className="mt-1 text-sm" />
                      </div>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {about.accreditations || about.partnerBodies ? (
          <div className="grid gap-10 md:grid-cols-2">
            {about.accreditations ? (
              <section aria-labelledby="about-accreditations">
                <h2 id="about-accreditations" className="text-2xl font-semibold tracking-tight">
                  Accreditations
                </h2>
                <PlainText text={about.accreditations} className="mt-4" />
              </section>
            ) : null}
            {about.partnerBodies ? (
              <section aria-labelledby="about-partner-bodies">
                <h2 id="about-partner-bodies" className="text-2xl font-semibold tracking-tight">
                  Partner bodies
                </h2>
                <PlainText text={about.partnerBodies} className="mt-4" />
              </section>
            ) : null}
          </div>
        ) : null}

        {seller ? (
          <section aria-labelledby="about-company">
            <h2 id="about-company" className="text-2xl font-semibold tracking-tight">
              Company details
            </h2>
            <dl
              className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)]"
              data-testid="about-company"
            >
              {sellerFacts(seller).map((fact) => (
                <div key={fact.label ?? "name"} className="contents">
                  <dt className="text-muted-foreground">
                    {fact.label ?? (seller.companyNumber ? "Company name" : "Business name")}
                  </dt>
                  <dd>{fact.value}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}

        <div className="flex flex-wrap gap-3">
          <Link to="/contact" className={buttonVariants({ size: "lg" })}>
            Contact Us
            <ArrowRight aria-hidden />
          </Link>
          <Link
            to="/services/counter-fraud-training"
            className={buttonVariants({ variant: "outline", size: "lg" })}
          >
            Our training courses
          </Link>
        </div>
      </div>
    </>
  );
}
