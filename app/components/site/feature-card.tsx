import { Check, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "#app/lib/ui/cn.ts";

/** An icon, a heading and a short text: service capabilities, inclusions, audiences. */
export function FeatureCard({
  icon: Icon,
  title,
  children,
  headingLevel = "h3",
  className,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  headingLevel?: "h3" | "h4";
  className?: string;
}) {
  const Heading = headingLevel;
  return (
    <div className={cn("rounded-lg border border-border bg-card p-6", className)}>
      <span className="inline-flex size-11 items-center justify-center rounded-md bg-primary/10 text-primary">
        <Icon aria-hidden className="size-6" />
      </span>
      <Heading className="mt-4 text-lg font-semibold">{title}</Heading>
      <div className="mt-2 text-sm leading-relaxed text-muted-foreground">{children}</div>
    </div>
  );
}

/** A short list with check marks, used for capabilities and what a service includes. */
export function CheckList({ items, className }: { items: ReactNode[]; className?: string }) {
  return (
    <ul className={cn("space-y-3", className)}>
      {items.map((item, index) => (
        <li key={index} className="flex gap-3">
          <span
            aria-hidden
            className="mt-1 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary"
          >
            <Check className="size-3.5" strokeWidth={3} />
          </span>
          <span className="text-foreground/90">{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** Feature cards in a grid list; `className` sets the grid's columns. */
export function FeatureGrid({
  items,
  className,
}: {
  items: { icon: LucideIcon; title: string; text: ReactNode }[];
  className: string;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.title} className="flex">
          <FeatureCard icon={item.icon} title={item.title} className="w-full">
            {item.text}
          </FeatureCard>
        </li>
      ))}
    </ul>
  );
}
