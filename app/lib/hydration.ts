/**
 * When a page hydrates (decision 0008), chosen by a route's `handle.hydrate`:
 * - "on-load": React Router's default, scripts preloaded and run as soon as they arrive (admin);
 * - "after-paint": the scripts are fetched once the page is on screen (the public site), so on
 *   a slow link they never compete with the first paint;
 * - "on-interaction": the page works as server HTML — links, the header menus (CSS and
 *   <details>), forms posted the plain way — and the framework is fetched only when the visitor
 *   starts to use a form, a button or the mobile menu (the home page).
 * The server (server/hydration.server.ts) holds React Router's module script back in the
 * rendered HTML; this file holds what both sides share and the small script that releases it.
 */

export type HydrationMode = "on-load" | "after-paint" | "on-interaction";

export interface HydrationHandle {
  hydrate?: HydrationMode;
}

/** The mode of the deepest route that names one (handles from the root down); else "on-load". */
export function hydrationMode(handles: readonly unknown[]): HydrationMode {
  for (const handle of [...handles].reverse()) {
    const mode = (handle as HydrationHandle | undefined)?.hydrate;
    if (mode) return mode;
  }
  return "on-load";
}

/** Sent on `document` by entry.client.tsx once the page is hydrated. */
export const HYDRATED_EVENT = "nightwatch:hydrated";

export interface WaitingPageOptions {
  /** Hydrate right after the first paint, or only when the visitor starts to use the page. */
  start: "paint" | "interaction";
  /** Id of the held-back copy of React Router's module script. */
  bootstrapId: string;
  /** Elements whose use calls for the full page. */
  triggers: string;
  hydratedEvent: string;
  /** How long a click or post made before hydration waits for it before going to the browser. */
  submitWaitMs: number;
  /** The particle field's chunk, and the boxes it is drawn in (see particles.tsx). */
  particles: { url: string; boxes: string; reducedMotion: string } | null;
}

/**
 * The inline script of a page whose hydration is held back. The server sends its source text
 * (`String(holdHydration)`), so it must stand alone: no imports, nothing from this module.
 *
 * Until the page is hydrated, what the visitor does is not lost: a click on a button (a dialog's
 * trigger, a form's submit button) or a form post is held and replayed once React is there, so
 * it gets the scripted behaviour (dialogs, toasts). If the scripts fail to load or take too
 * long, it is replayed to the browser instead: a form is then posted the plain way.
 */
export function holdHydration(options: WaitingPageOptions): void {
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? "";
  let hydrating = false;
  let released = false;
  let held:
    { click: HTMLButtonElement } | { form: HTMLFormElement; submitter: HTMLElement | null } | null =
    null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const hold = (event: Event, what: NonNullable<typeof held>) => {
    event.preventDefault();
    held = what;
    hydrate();
    clearTimeout(timer);
    timer = setTimeout(release, options.submitWaitMs);
  };
  const onUse = (event: Event) => {
    const target = event.target;
    if (target instanceof Element && target.closest(options.triggers)) hydrate();
  };
  const onClick = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest("button") : null;
    if (button && !button.disabled) hold(event, { click: button });
  };
  // A post without a button click (Enter in a form without a submit button, a script's submit).
  const onSubmit = (event: Event) => {
    if (event.target instanceof HTMLFormElement) {
      hold(event, { form: event.target, submitter: (event as SubmitEvent).submitter });
    }
  };
  const listeners: [string, (event: Event) => void][] = [
    ["pointerdown", onUse],
    ["focusin", onUse],
    ["click", onClick],
    ["submit", onSubmit],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener, true);

  /** From now on the page handles events itself: React's, or the browser's if scripts failed. */
  function release() {
    if (released) return;
    released = true;
    clearTimeout(timer);
    for (const [type, listener] of listeners) document.removeEventListener(type, listener, true);
    const what = held;
    held = null;
    if (what && "click" in what) {
      if (what.click.isConnected) what.click.click();
    } else if (what?.form.isConnected) {
      const { form, submitter } = what;
      form.requestSubmit(
        submitter instanceof HTMLButtonElement && submitter.isConnected ? submitter : null,
      );
    }
  }
  document.addEventListener(options.hydratedEvent, release, { once: true });

  function hydrate() {
    if (hydrating) return;
    hydrating = true;
    const bootstrap = document.getElementById(options.bootstrapId);
    if (!bootstrap) return release();
    // A new element: one that the parser met with a type it does not run never runs later.
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = nonce;
    script.textContent = bootstrap.textContent;
    script.addEventListener("error", release);
    document.head.append(script);
  }

  const whenParsed = (then: () => void) => {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", then, { once: true });
    } else then();
  };
  if (options.start === "paint") {
    // The task after the first frame: the page is on screen before any script is fetched.
    whenParsed(() => requestAnimationFrame(() => setTimeout(hydrate, 0)));
  }

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
    whenParsed(whenIdle);
  }
}
