import type { PublicTrainer } from "#app/lib/catalogue/trainer-form.ts";
import { PlainText } from "./plain-text.tsx";

/**
 * The course page's sections a buyer decides from (app/routes/courses/course.tsx): who should
 * attend, what they will learn, prerequisites, format and what's included — each only when
 * staff filled it — and the course's trainers with photo, name, role and short bio.
 */

export interface CourseBuyerDetails {
  audience: string | null;
  learningOutcomes: string | null;
  prerequisites: string | null;
  formatDetails: string | null;
}

const SECTIONS = [
  ["audience", "Who should attend"],
  ["learningOutcomes", "What you will learn"],
  ["prerequisites", "Prerequisites"],
  ["formatDetails", "Format and what's included"],
] as const satisfies readonly [keyof CourseBuyerDetails, string][];

export function CourseBuyerSections({ details }: { details: CourseBuyerDetails }) {
  return SECTIONS.map(([key, heading]) => {
    const text = details[key];
    if (!text) return null;
    const id = `course-${key}`;
    return (
      <section key={key} aria-labelledby={id} className="mt-10" data-testid={id}>
        <h3 id={id} className="text-2xl font-semibold tracking-tight">
          {heading}
        </h3>
        <PlainText text={text} className="mt-4" />
      </section>
    );
  });
}

export function CourseTrainers({ trainers }: { trainers: PublicTrainer[] }) {
  if (trainers.length === 0) return null;
  return (
    <section aria-labelledby="course-trainers" className="mt-10">
      <h3 id="course-trainers" className="text-2xl font-semibold tracking-tight">
        {trainers.length === 1 ? "Your trainer" : "Your trainers"}
      </h3>
      <ul className="mt-4 grid gap-4">
        {trainers.map((trainer) => (
          <li
            key={trainer.id}
            data-testid="course-trainer"
            className="flex gap-4 rounded-lg border border-border bg-card p-4"
          >
            <TrainerPhoto trainer={trainer} />
            <div className="min-w-0">
              <h4 className="font-semibold">{trainer.name}</h4>
              {trainer.role ? (
                <p className="text-sm text-muted-foreground">{trainer.role}</p>
              ) : null}
              {trainer.bio ? <PlainText text={trainer.bio} className="mt-2 text-sm" /> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A trainer's photo, or their initials when there is none. */
export function TrainerPhoto({ trainer }: { trainer: PublicTrainer }) {
  return trainer.photoUrl ? (
    <img
      src={trainer.photoUrl}
      alt={`Photo of ${trainer.name}`}
      width={80}
      height={80}
      loading="lazy"
      decoding="async"
      className="size-20 shrink-0 rounded-full border border-border bg-muted object-cover"
    />
  ) : (
    <div
      aria-hidden
      className="flex size-20 shrink-0 items-center justify-center rounded-full border border-border bg-muted text-lg font-semibold text-muted-foreground"
    >
      {initials(trainer.name)}
    </div>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}
