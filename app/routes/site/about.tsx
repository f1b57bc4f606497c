import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { AboutProfile } from "#app/components/site/about-profile.tsx";
import { HeroBackdrop } from "#app/components/site/page-hero.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { loadPublicAboutPage } from "#server/catalogue/about.server.ts";
import type { Route } from "./+types/about";

/**
 * /about: 'Coming Soon' (the spec's placeholder) until staff publish the About profile at
 * /admin/about; then what they wrote, the trainers and the seller's registered details
 * (server/catalogue/about.server.ts). A draft's text never reaches this page's data.
 */

export async function loader() {
  return { about: await loadPublicAboutPage() };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "About Us",
    description: args.loaderData?.about.published
      ? "About NightWatch, the London-based dark web monitoring, counter fraud training and security consultancy provider: who we are, our trainers and our accreditations."
      : "About NightWatch, the London-based dark web monitoring, counter fraud training and security consultancy provider. Our full story is coming soon.",
  });

export default function About({ loaderData }: Route.ComponentProps) {
  const { about } = loaderData;
  if (about.published) return <AboutProfile about={about} />;
  return (
    <section
      aria-labelledby="page-title"
      className="relative isolate overflow-hidden border-b border-border"
    >
      <HeroBackdrop />
      <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-24 text-center sm:py-32">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">
          About NightWatch
        </p>
        <h1 id="page-title" className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">
          Coming Soon
        </h1>
        <p className="mt-6 text-lg text-muted-foreground">
          We are writing the story of who we are and how we work. In the meantime, we are happy to
          tell you about it ourselves.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/contact" className={buttonVariants({ size: "lg" })}>
            Contact Us
            <ArrowRight aria-hidden />
          </Link>
          <Link to="/#services" className={buttonVariants({ variant: "outline", size: "lg" })}>
            Our Services
          </Link>
        </div>
      </div>
    </section>
  );
}
