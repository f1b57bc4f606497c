import { lazy, Suspense, useEffect, useState } from "react";

/**
 * The decorative particle animation of a hero (spec §1: 80 particles). Bundled with the site,
 * not fetched from a third-party host. Nothing renders on the server or on first paint: the
 * canvas code is a separate chunk, requested only once the page is interactive and the browser
 * is idle, and never when the visitor prefers reduced motion. Place inside a `relative` box;
 * it fills it, sits behind the content and ignores the pointer.
 */

const ParticleField = lazy(() => import("./particle-field.tsx"));

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

export function DeferredParticles({ className }: { className?: string }) {
  const [show, setShow] = useState(false);

  useEffect(() => {
    const motion = window.matchMedia(REDUCED_MOTION);
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cancel = () => {
      if (idle !== undefined) window.cancelIdleCallback?.(idle);
      if (timer !== undefined) clearTimeout(timer);
      idle = timer = undefined;
    };
    const schedule = () => {
      cancel();
      if (motion.matches) return setShow(false);
      const start = () => setShow(true);
      if ("requestIdleCallback" in window)
        idle = window.requestIdleCallback(start, { timeout: 3000 });
      else timer = setTimeout(start, 1500);
    };
    schedule();
    motion.addEventListener("change", schedule);
    return () => {
      cancel();
      motion.removeEventListener("change", schedule);
    };
  }, []);

  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <ParticleField className={className} />
    </Suspense>
  );
}
