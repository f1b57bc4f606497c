import type { ReactNode } from "react";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * The card every enquiry and licence form sits in. On a solid card colour, so text keeps its
 * contrast whatever backdrop the page draws behind it.
 */
export function FormPanel({
  title,
  description,
  headingLevel = "h2",
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  headingLevel?: "h2" | "h3";
  children: ReactNode;
  className?: string;
}) {
  const Heading = headingLevel;
  return (
    <div
      className={cn(
        "rounded-xl border border-border bg-card p-5 shadow-2xl shadow-black/40 sm:p-8",
        className,
      )}
    >
      <Heading className="text-xl font-semibold">{title}</Heading>
      {description ? <p className="mt-2 text-sm text-muted-foreground">{description}</p> : null}
      <div className="mt-6">{children}</div>
    </div>
  );
}
