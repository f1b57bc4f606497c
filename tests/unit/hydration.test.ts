import { describe, expect, it } from "vitest";
import { holdBackScripts } from "#server/hydration.server.ts";

/**
 * The rewrite that makes a page wait for interaction before hydrating (decision 0008): the
 * framework's preloads go, its module script is kept in place but not run, the waiting script
 * comes in with the page's nonce; anything unexpected leaves the page as React Router made it.
 * The browser side is covered by tests/e2e/hydration.spec.ts.
 */

const NONCE = "bm9uY2Utb2YtdGhlLXBhZ2U=";

/** The shape of a page React Router 7 renders: preloads hoisted to the head, scripts at the end. */
function page({ moduleScripts = 1, moduleInHead = false } = {}) {
  const bootstrap = `<script nonce="${NONCE}" type="module" async="">import * as route0 from "/assets/root-a1.js";
window.__reactRouterRouteModules = {"root":route0};
import("/assets/entry.client-b2.js");</script>`;
  return [
    `<!DOCTYPE html><html lang="en-GB"><head><meta charSet="utf-8"/>`,
    `<link rel="modulepreload" href="/assets/entry.client-b2.js" nonce="${NONCE}"/>`,
    `<link rel="modulepreload" href="/assets/framework-c3.js" nonce="${NONCE}"/>`,
    moduleInHead ? bootstrap : "",
    `<title>NightWatch</title></head><body><main><h1>Home</h1><form method="post"></form></main>`,
    `<script nonce="${NONCE}">window.__reactRouterContext = {};</script>`,
    moduleInHead ? "" : Array.from({ length: moduleScripts }, () => bootstrap).join(""),
    `<script nonce="${NONCE}">window.__reactRouterContext.streamController.close();</script>`,
    `</body></html>`,
  ].join("");
}

describe("holdBackScripts", () => {
  it("drops the preloads, keeps the module script unrun in its place, adds the waiting script", () => {
    const before = page();
    const after = holdBackScripts(before, NONCE, "interaction");

    expect(after).not.toContain("modulepreload");
    expect(after).not.toMatch(/type="module"/);
    const held =
      /<script type="text\/x-deferred-module" id="deferred-hydration">([\s\S]*?)<\/script>/.exec(
        after,
      );
    expect(held?.[1]).toContain('import("/assets/entry.client-b2.js")');
    // The held script sits where the module script was: between the two data scripts.
    expect(after.indexOf("window.__reactRouterContext = {}")).toBeLessThan(held!.index);
    expect(after.indexOf("streamController.close()")).toBeGreaterThan(held!.index);

    const head = after.slice(0, after.indexOf("</head>"));
    const waiting = new RegExp(`<script nonce="${NONCE}">(\\(function[\\s\\S]*?)</script>`).exec(
      head,
    );
    expect(waiting).not.toBeNull();
    // Valid JavaScript that calls the function with the options (parsed, not run).
    expect(() => new Function(waiting![1]!)).not.toThrow();
    expect(waiting![1]).toContain('"bootstrapId":"deferred-hydration"');
    expect(waiting![1]).toContain('"triggers":"form, button, summary"');

    // Nothing else changes: the page's content and its other scripts are as rendered.
    expect(after).toContain(`<main><h1>Home</h1><form method="post"></form></main>`);
    expect(after.match(new RegExp(`nonce="${NONCE}"`, "g"))).toHaveLength(3);
  });

  it("sends the page unchanged when React Router's output is not as expected", () => {
    for (const unexpected of [
      page({ moduleScripts: 0 }),
      page({ moduleScripts: 2 }),
      page({ moduleInHead: true }),
      "<html><body>no head</body></html>",
    ]) {
      expect(holdBackScripts(unexpected, NONCE, "paint")).toBe(unexpected);
    }
  });
});
