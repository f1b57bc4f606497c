/**
 * Hydration on interaction (decision 0008). A page whose route exports
 * `handle = { hydrate: "on-interaction" } satisfies HydrationHandle` is sent as server HTML that
 * works on its own — links, the header menus (CSS and <details>), forms posted the plain way —
 * with React Router's scripts held back. The framework is fetched and the page hydrated only
 * when the visitor starts to use something that needs it: a form, a button, the mobile menu.
 * The server (server/hydration.server.ts) makes the change to the rendered HTML; this file holds
 * what both sides share and the small script the browser runs meanwhile.
 */

export interface HydrationHandle {
  hydrate?: "on-load" | "on-interaction";
}

export function hydratesOnInteraction(handle: unknown): boolean {
  return (handle as HydrationHandle | undefined)?.hydrate === "on-interaction";
}

export interface WaitingPageOptions {
  /** Id of the held-back copy of React Router's module script. */
  bootstrapId: string;
  /** Elements whose use calls for the full page. */
  triggers: string;
  /** The particle field's chunk, and the boxes it is drawn in (see particles.tsx). */
  particles: { url: string; boxes: string; reducedMotion: string } | null;
}

/**
 * The inline script of a page that waits for interaction. The server sends its source text
 * (`String(waitForInteraction)`), so it must stand alone: no imports, nothing from this module.
 */
export function waitForInteraction(options: WaitingPageOptions): void {
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? "";
  const events = ["pointerdown", "focusin"] as const;
  let hydrating = false;

  const hydrate = () => {
    if (hydrating) return;
    hydrating = true;
    for (const type of events) document.removeEventListener(type, onEvent, true);
    const held = document.getElementById(options.bootstrapId);
    if (!held) return;
    // A new element: one that the parser met with a type it does not run never runs later.
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = nonce;
    script.textContent = held.textContent;
    document.head.append(script);
  };
  const onEvent = (event: Event) => {
    const target = event.target;
    if (target instanceof Element && target.closest(options.triggers)) hydrate();
  };
  for (const type of events) document.addEventListener(type, onEvent, true);

  const particles = options.particles;
  if (particles && !window.matchMedia(particles.reducedMotion).matches) {
    const start = () => {
      const boxes = document.querySelectorAll<HTMLElement>(particles.boxes);
      if (boxes.length === 0) return;
      void import(/* @vite-ignore */ particles.url).then(
        (field: { mountParticleField: (box: HTMLElement) => unknown }) => {
          for (const box of boxes) field.mountParticleField(box);
        },
      );
    };
    const whenIdle = () => {
      if ("requestIdleCallback" in window) window.requestIdleCallback(start, { timeout: 3000 });
      else setTimeout(start, 1500);
    };
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", whenIdle, { once: true });
    } else whenIdle();
  }
}
