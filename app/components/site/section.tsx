import { useId, type ReactNode } from "react";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * A page section with its h2. Labelled by its heading, so screen-reader users can jump
 * between sections by landmark as well as by heading.
 */
export function Section({
  id,
  eyebrow,
  title,
  lead,
  children,
  className,
  tone = "plain",
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** "muted" sets the section on the card colour, to separate neighbouring sections. */
  tone?: "plain" | "muted";
}) {
  const headingId = `${useId()}-title`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn(tone === "muted" && "border-y border-border bg-card/60", className)}
    >
      <div className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
        <div className="max-w-3xl">
          {eyebrow ? (
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
          ) : null}
          <h2 id={headingId} className="mt-2 text-3xl font-bold tracking-tight text-balance">
            {title}
          </h2>
          {lead ? <p className="mt-4 text-lg text-pretty text-muted-foreground">{lead}</p> : null}
        </div>
        {children ? <div className="mt-10">{children}</div> : null}
      </div>
    </section>
  );
}
