import { GraduationCap, MessagesSquare } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useSubmit } from "react-router";
import {
  catalogueFilterValue,
  coursePicture,
  isBookableOnline,
  listCatalogue,
  partnerBadge,
  partnerLogo,
} from "#server/catalogue/courses.server.ts";
import { CourseCard } from "#app/components/site/course-card.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import trainingSession from "#app/assets/illustrations/training-session.svg?no-inline";
import { DeferredParticles } from "#app/components/site/particles.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { EXCLUSIVE_FILTER_VALUE } from "#app/lib/catalogue/catalogue.ts";
import { formatPrice } from "#app/lib/format.ts";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/counter-fraud-training";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";
import { courseSchedule } from "#app/lib/catalogue/course-dates.ts";

const ALL = "all";

export async function loader({ request }: Route.LoaderArgs) {
  const catalogue = await listCatalogue({
    partner: new URL(request.url).searchParams.get("partner"),
  });
  return {
    selected: catalogueFilterValue(catalogue.filter) ?? ALL,
    partnerNames: catalogue.partnerNames,
    courses: catalogue.courses.map((course) => ({
      id: course.id,
      slug: course.slug,
      title: course.title,
      shortDescription: course.shortDescription,
      imageUrl: coursePicture(course).url,
      priceLabel: formatPrice(course.price),
      schedule: courseSchedule({
        nextDateStartsAt: course.nextDateStartsAt,
        onDemand:
          course.partnerName === null && isBookableOnline({ price: course.price, partner: null }),
      }),
      badge: partnerBadge(course.partnerName),
      partnerLogo: partnerLogo(course.partnerName, course.partnerLogoUrl),
    })),
  };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Counter Fraud Training Courses",
    description:
      "Counter-fraud, OSINT, dark web and security awareness training for UK organisations: NightWatch's own courses and courses delivered with partners such as Cifas, online and in the classroom.",
  });

/** The hero's illustration: illustrative, no real data, names or figures. */
const ILLUSTRATION = {
  src: trainingSession,
  alt: "Illustration: a class learning the red flags of a phishing e-mail, and a certificate",
  width: 560,
  height: 440,
};

export default function CounterFraudTraining({ loaderData }: Route.ComponentProps) {
  const { courses, partnerNames, selected } = loaderData;
  const options = [
    { value: ALL, label: "All Courses" },
    { value: EXCLUSIVE_FILTER_VALUE, label: "NightWatch Exclusive" },
    ...partnerNames.map((name) => ({ value: name, label: `In partnership with ${name}` })),
  ];

  return (
    <>
      {/* The particles fill this box behind the hero's transparent section. */}
      <div className="relative isolate overflow-hidden">
        <DeferredParticles />
        <PageHero
          eyebrow="Counter fraud training"
          illustration={ILLUSTRATION}
          icon={GraduationCap}
          title="Counter fraud training courses"
          lead="Practical courses for counter-fraud, KYC, investigation and frontline teams, online and in the classroom. Choose from NightWatch's own courses and those we deliver with respected partners."
        >
          <Link to={quoteLink("counter-fraud-training")} className={buttonVariants({ size: "lg" })}>
            <MessagesSquare aria-hidden />
            Discuss Training Requirements
          </Link>
        </PageHero>
      </div>

      <section aria-labelledby="courses-title" className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
        <h2 id="courses-title" className="text-3xl font-bold tracking-tight">
          Available courses
        </h2>
        <CatalogueFilter options={options} selected={selected} />
        <p role="status" className="mt-6 text-sm text-muted-foreground">
          {courses.length === 1 ? "Showing 1 course" : `Showing ${courses.length} courses`}
        </p>
        {courses.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-border p-10 text-center text-muted-foreground">
            No courses found matching your criteria.
          </p>
        ) : (
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {courses.map((course, index) => (
              <li key={course.id}>
                <CourseCard course={course} eager={index < 3} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/**
 * A GET form, so the filter is a link-able query parameter and works without JavaScript
 * (pick a radio, press 'Show courses'). With JavaScript a change navigates at once, keeping
 * the scroll position, and the button is hidden. The radios are uncontrolled: a filter picked
 * before the page's scripts ran is still picked once they have, and is applied then.
 */
function CatalogueFilter({
  options,
  selected,
}: {
  options: { value: string; label: string }[];
  selected: string;
}) {
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // The filter the radios were last set to from the URL.
  const shown = useRef(selected);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    const radios = formRef.current?.elements.namedItem("partner");
    if (!(radios instanceof RadioNodeList)) return;
    if (selected !== shown.current) {
      // A navigation (a change, back/forward, a link) brought another filter: show it.
      shown.current = selected;
      radios.value = selected;
    } else if (radios.value && radios.value !== selected) {
      // Hydration found a filter the visitor picked meanwhile: apply it as a change would.
      submit(radios.value === ALL ? {} : { partner: radios.value }, {
        method: "get",
        preventScrollReset: true,
      });
    }
  }, [selected, submit]);

  return (
    <Form ref={formRef} method="get" preventScrollReset className="mt-6">
      <fieldset className="rounded-lg border border-border bg-card/60 p-4">
        <legend className="px-1 text-sm font-semibold">Filter courses</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          {options.map((option) => (
            <label
              key={option.value}
              className="flex cursor-pointer items-center gap-2 text-sm has-[:checked]:text-primary"
            >
              <input
                type="radio"
                name="partner"
                value={option.value}
                defaultChecked={option.value === selected}
                onChange={() => {
                  submit(option.value === ALL ? {} : { partner: option.value }, {
                    method: "get",
                    preventScrollReset: true,
                  });
                }}
                className="size-4 shrink-0 cursor-pointer accent-primary"
              />
              {option.label}
            </label>
          ))}
        </div>
        <Button type="submit" size="sm" variant="outline" className="mt-4" hidden={hydrated}>
          Show courses
        </Button>
      </fieldset>
    </Form>
  );
}
