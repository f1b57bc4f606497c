import { PassThrough, Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { hydrationMode } from "#app/lib/hydration.ts";
import { StylesProvider } from "#app/lib/inline-styles.tsx";
import { NonceProvider } from "#app/lib/nonce.ts";
import siteCss from "./app.css?inline";
import { holdBackScripts } from "#server/hydration.server.ts";
import { log } from "#server/log.server.ts";

export const streamTimeout = 5_000;

/**
 * React Router's Node entry, plus the CSP nonce on every script it renders, and held-back
 * hydration for the pages that ask for it (app/lib/hydration.ts, decision 0008).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  // A page whose hydration is held back is rewritten as a whole, so it is rendered whole.
  const start = import.meta.env.DEV ? null : heldHydrationStart(routerContext);
  const waits = start !== null;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and held-back pages get the whole document at once; other pages stream from the
    // shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      waits || (userAgent && isbot(userAgent)) || routerContext.isSpaMode
        ? "onAllReady"
        : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesProvider css={siteCss}>
          {waits ? null : <LowPriorityModulePreloads context={routerContext} nonce={nonce} />}
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (waits) {
            const chunks: Buffer[] = [];
            pipe(
              new Writable({
                write(chunk: Buffer, _encoding, callback) {
                  chunks.push(chunk);
                  callback();
                },
                final(callback) {
                  clearTimeout(timeoutId);
                  timeoutId = undefined;
                  const html = holdBackScripts(
                    Buffer.concat(chunks).toString("utf8"),
                    nonce,
                    start,
                  );
                  resolve(
                    new Response(html, { headers: responseHeaders, status: responseStatusCode }),
                  );
                  callback();
                },
              }),
            );
            return;
          }
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router; these happen while streaming.
          if (shellRendered) log.error({ err: error }, "error while streaming a page");
        },
      },
    );
  });
}

/** When a page with held-back hydration starts it (app/lib/hydration.ts); null: React Router's way. */
function heldHydrationStart({ staticHandlerContext, routeModules, isSpaMode }: EntryContext) {
  if (isSpaMode) return null;
  const mode = hydrationMode(
    staticHandlerContext.matches.map((match) => routeModules[match.route.id]?.handle),
  );
  return mode === "after-paint" ? "paint" : mode === "on-interaction" ? "interaction" : null;
}

/**
 * The page's scripts, preloaded at low priority ahead of React Router's own preload links (which
 * the browser then finds already fetching). The page is readable without them — the HTML carries
 * the content and the styles — so on a slow link they must not take bandwidth from the first
 * paint or from images; React preloads its own bootstrap modules the same way.
 */
function LowPriorityModulePreloads({ context, nonce }: { context: EntryContext; nonce: string }) {
  const { manifest, staticHandlerContext } = context;
  const hrefs = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const match of staticHandlerContext.matches) {
    const route = manifest.routes[match.route.id];
    if (!route) continue;
    hrefs.add(route.module);
    for (const href of route.imports ?? []) hrefs.add(href);
  }
  return [...hrefs].map((href) => (
    <link key={href} rel="modulepreload" href={href} fetchPriority="low" nonce={nonce} />
  ));
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log.error(
    { err: error, path: new URL(request.url).pathname },
    "unhandled error in a loader or action",
  );
}
