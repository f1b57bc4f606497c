import { readFileSync } from "node:fs";
import path from "node:path";
import { PARTICLES_ATTRIBUTE, REDUCED_MOTION } from "#app/components/site/particles.tsx";
import { HYDRATED_EVENT, holdHydration, type WaitingPageOptions } from "#app/lib/hydration.ts";
import { config } from "./config.server.ts";
import { log } from "./log.server.ts";

/**
 * The server half of held-back hydration (app/lib/hydration.ts, decision 0008): turns a page
 * React Router rendered into one whose scripts wait for the first paint or for the visitor.
 *
 * - Module preload links are dropped, so nothing of the framework is fetched with the page.
 * - React Router's module script (the imports of the route modules and the client entry) is
 *   kept in place with a type the browser does not run, so hydration later finds the same
 *   elements where the server put them. The classic scripts (loader data, scroll restoration)
 *   run as usual: they only store data.
 * - The small inline script of `holdHydration` is added to the head with the page's nonce.
 *
 * If React Router's output ever stops matching what is expected here, the page is sent as
 * rendered (hydrating at once) and the mismatch is logged: never a page that cannot hydrate.
 */

const BOOTSTRAP_ID = "deferred-hydration";
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*>/g;

/** The client chunk a source module was built into, from Vite's client manifest. */
function clientChunkUrl(source: string): string | null {
  const file = path.join(config.buildDir, "client/.vite/manifest.json");
  try {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, { file?: string }>;
    const chunk = manifest[source]?.file;
    if (chunk) return `/${chunk}`;
    log.warn({ source, file }, "a client module is missing from the build manifest");
  } catch (error) {
    log.warn({ err: error, file }, "could not read the client build manifest");
  }
  return null;
}

/** The waiting script's text per start mode (the nonce is added per page). */
const scripts = new Map<WaitingPageOptions["start"], string>();

function waitingScript(start: WaitingPageOptions["start"]): string {
  let script = scripts.get(start);
  if (script) return script;
  // Until a page that waits for the visitor hydrates, the hero particles are started without React.
  const particlesUrl =
    start === "interaction" ? clientChunkUrl("app/components/site/particle-field.ts") : null;
  const options: WaitingPageOptions = {
    start,
    bootstrapId: BOOTSTRAP_ID,
    triggers: "form, button, summary",
    hydratedEvent: HYDRATED_EVENT,
    submitWaitMs: 10_000,
    particles: particlesUrl
      ? { url: particlesUrl, boxes: `[${PARTICLES_ATTRIBUTE}]`, reducedMotion: REDUCED_MOTION }
      : null,
  };
  // JSON inside a script element: "<" escaped so no text can close the element.
  const json = JSON.stringify(options).replaceAll("<", "\\u003c");
  script = `(${String(holdHydration)})(${json})`;
  scripts.set(start, script);
  return script;
}

let warned = false;

export function holdBackScripts(
  html: string,
  nonce: string,
  start: WaitingPageOptions["start"],
): string {
  const modules = [...html.matchAll(MODULE_SCRIPT)];
  const bootstrap = modules[0];
  const headEnd = html.indexOf("</head>");
  if (modules.length !== 1 || !bootstrap || headEnd < 0 || bootstrap.index < headEnd) {
    if (!warned) {
      warned = true;
      log.warn(
        { moduleScripts: modules.length },
        "page sent with its scripts: React Router's output is not as held-back hydration expects",
      );
    }
    return html;
  }
  const body =
    html.slice(headEnd, bootstrap.index) +
    `<script type="text/x-deferred-module" id="${BOOTSTRAP_ID}">` +
    html.slice(bootstrap.index + bootstrap[0].length);
  const head = html.slice(0, headEnd).replace(MODULE_PRELOAD, "");
  const waiting = `<script nonce="${nonce}">${waitingScript(start)}</script>`;
  return head + waiting + body.replace(MODULE_PRELOAD, "");
}
