import { useEffect, useRef } from "react";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * The decorative particle animation of a hero (80 particles). Bundled with the site,
 * not fetched from a third-party host. Nothing is drawn on the server or on first paint: the
 * canvas code is a separate chunk, requested once the page is interactive and the browser is
 * idle, and never when the visitor prefers reduced motion. Place inside a `relative` box; it fills
 * it, sits behind the content and ignores the pointer.
 */

export const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

export function DeferredParticles({ className }: { className?: string }) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const motion = window.matchMedia(REDUCED_MOTION);
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopField: (() => void) | undefined;
    let unmounted = false;
    const cancel = () => {
      if (idle !== undefined) window.cancelIdleCallback?.(idle);
      if (timer !== undefined) clearTimeout(timer);
      idle = timer = undefined;
    };
    const start = () => {
      void import("./particle-field.ts").then(({ mountParticleField }) => {
        if (!unmounted && !motion.matches) stopField = mountParticleField(box);
      });
    };
    const schedule = () => {
      cancel();
      stopField?.();
      stopField = undefined;
      if (motion.matches) return;
      if ("requestIdleCallback" in window)
        idle = window.requestIdleCallback(start, { timeout: 3000 });
      else timer = setTimeout(start, 1500);
    };
    schedule();
    motion.addEventListener("change", schedule);
    return () => {
      unmounted = true;
      cancel();
      stopField?.();
      motion.removeEventListener("change", schedule);
    };
  }, []);

  // The canvas inside is added by plain DOM code (particle-field.ts), which React leaves alone.
  return (
    <div
      ref={ref}
      data-particles=""
      aria-hidden="true"
      className={cn("pointer-events-none absolute inset-0", className)}
    />
  );
}
