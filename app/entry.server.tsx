import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type EntryContext } from "react-router";
import { isSharedPage } from "#app/lib/ui/http-cache.ts";
import { StylesProvider } from "#app/lib/ui/inline-styles.tsx";
import { NonceProvider } from "#app/lib/ui/nonce.ts";
import siteCss from "./app.css?inline";
import { logFailure } from "#server/db/errors.server.ts";
import { log } from "#server/log.server.ts";
import { documentPolicy, freshNonce, inlineScriptHashes } from "#server/security-headers.server.ts";

export const streamTimeout = 5_000;

/**
 * React Router's Node entry, plus the page's Content-Security-Policy:
 * - a page every anonymous visitor shares (it says so with a public, s-maxage Cache-Control) is
 *   rendered whole and the inline scripts the render wrote are allowed by their hashes, so the
 *   same bytes and headers can be kept by any cache, and a script injected into the page is not;
 * - every other page (admin, a form's answer, an error) streams, its scripts carrying a fresh
 *   nonce.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const shared = isSharedPage(responseHeaders);
  // Every render marks the inline scripts it writes with a fresh nonce. A page for one visitor
  // is allowed them by that nonce; a shared page by the hashes of the scripts so marked (the
  // nonce attribute then only tells ours from anything injected).
  const nonce = freshNonce();
  if (!shared) responseHeaders.set("Content-Security-Policy", documentPolicy({ nonce }));
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Shared pages and crawlers get the whole document at once; other pages stream from the
    // shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      shared || (userAgent && isbot(userAgent)) || routerContext.isSpaMode
        ? "onAllReady"
        : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesProvider css={siteCss}>
          <LowPriorityModulePreloads context={routerContext} nonce={nonce} />
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          pipe(body);
          if (!shared) {
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
            return;
          }
          text(body).then((html) => {
            responseHeaders.set(
              "Content-Security-Policy",
              documentPolicy({ hashes: inlineScriptHashes(html, nonce) }),
            );
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          }, reject);
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
    <link
      key={href}
      rel="modulepreload"
      href={href}
      fetchPriority="low"
      nonce={nonce || undefined}
    />
  ));
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  const path = new URL(request.url).pathname;
  if (isClientError(error)) {
    const reason = isRouteErrorResponse(error) ? String(error.data) : (error as Error).message;
    log.warn({ method: request.method, path, reason }, "request refused by the router");
    return;
  }
  logFailure(error, { path }, "unhandled error in a loader or action");
}

/**
 * The client's mistakes that React Router reports here before answering 4xx: a post to a page
 * without an action (405), and its CSRF check on an Origin header that is not a URL or names
 * another site (400) — for a `.data` post (single fetch) that check's error is replaced by a
 * plain "Bad Request" before it gets here. Nothing is wrong with the server.
 */
function isClientError(error: unknown): boolean {
  if (isRouteErrorResponse(error)) return error.status < 500;
  return (
    error instanceof Error &&
    (error.message.endsWith("Aborting the action.") || error.message === "Bad Request")
  );
}
