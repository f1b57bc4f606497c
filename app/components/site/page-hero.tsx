import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "#app/lib/ui/cn.ts";

/** A static illustration (an SVG under app/assets/illustrations, imported as a URL). */
export interface Illustration {
  src: string;
  /** What it shows, starting 'Illustration: '; empty when it is purely decorative. */
  alt: string;
  width: number;
  height: number;
}

/**
 * The top of a public page: the page's only h1, a lead paragraph and its main actions, and an
 * illustration beside them on wide screens (below them on narrow ones, so the heading stays
 * first). The backdrop is drawn with CSS gradients; the illustration reserves its box.
 */
export function PageHero({
  eyebrow,
  icon: Icon,
  title,
  lead,
  children,
  illustration,
  className,
}: {
  eyebrow?: string;
  icon?: LucideIcon;
  title: ReactNode;
  lead?: ReactNode;
  /** Calls to action, laid out in a wrapping row. */
  children?: ReactNode;
  illustration?: Illustration;
  className?: string;
}) {
  return (
    <section
      aria-labelledby="page-title"
      className={cn("relative isolate overflow-hidden border-b border-border", className)}
    >
      <HeroBackdrop />
      <div
        className={cn(
          "mx-auto max-w-7xl px-4 py-16 sm:py-24",
          illustration &&
            "lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,30rem)] lg:items-center lg:gap-12",
        )}
      >
        <div>
          {eyebrow ? (
            <p className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-background px-3 py-1 text-sm font-medium text-primary">
              {Icon ? <Icon aria-hidden className="size-4" /> : null}
              {eyebrow}
            </p>
          ) : null}
          <h1
            id="page-title"
            className="mt-5 max-w-4xl text-4xl font-bold tracking-tight text-balance sm:text-5xl"
          >
            {title}
          </h1>
          {lead ? (
            <p className="mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">{lead}</p>
          ) : null}
          {children ? <div className="mt-8 flex flex-wrap gap-3">{children}</div> : null}
        </div>
        {illustration ? <HeroIllustration illustration={illustration} /> : null}
      </div>
    </section>
  );
}

/**
 * A hero's illustration: a plain image (no script, nothing to hydrate), loaded lazily: on a phone
 * it is below the fold, and on a wide screen the heading beside it is what is painted first.
 */
export function HeroIllustration({
  illustration,
  className,
}: {
  illustration: Illustration;
  className?: string;
}) {
  return (
    <img
      src={illustration.src}
      alt={illustration.alt}
      width={illustration.width}
      height={illustration.height}
      loading="lazy"
      decoding="async"
      data-illustration=""
      className={cn("mx-auto mt-12 block h-auto w-full max-w-md lg:mt-0 lg:max-w-none", className)}
    />
  );
}

/** A faint grid and a cyan glow behind hero text; purely decorative. */
export function HeroBackdrop() {
  return (
    <div aria-hidden className="pointer-events-none absolute inset-0 -z-10">
      <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(38_50_68/0.35)_1px,transparent_1px),linear-gradient(to_bottom,rgb(38_50_68/0.35)_1px,transparent_1px)] bg-size-[48px_48px] [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_75%)]" />
      <div className="absolute -top-40 left-1/2 h-96 w-[48rem] max-w-none -translate-x-1/2 rounded-full bg-primary/10 blur-3xl" />
    </div>
  );
}
