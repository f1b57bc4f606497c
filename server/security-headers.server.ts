import { createHash, randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import { config } from "./config.server.ts";

/**
 * Response headers that make the site safe to put on the internet.
 *
 * Every response gets the fixed headers below. A page (an HTML document, rendered in
 * app/entry.server.tsx) also gets its Content-Security-Policy there, because only the render
 * knows which inline scripts the page runs:
 * - a page shared by every anonymous visitor (and by any cache in front) allows its inline
 *   scripts by their SHA-256 hashes — only those the render itself wrote, which it marks with a
 *   one-off value — so its policy holds no secret a cached copy could give away;
 * - any other page (admin, a form's answer) allows them by a fresh nonce.
 * Styles may be inline because the UI primitives position popovers with style attributes.
 */

const HTTPS = config.publicUrl.startsWith("https://");

/** Sets the headers every response carries (not the CSP: see `documentPolicy`). */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    if (HTTPS) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    );
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    next();
  };
}

/** A new CSP nonce: 16 bytes from the CSPRNG, base64. */
export function freshNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * Where a form may send the browser: this site, and Stripe's payment pages (the booker's "Pay by
 * card" is a plain post that Stripe Checkout answers). Tests point Stripe at a fake on another
 * origin (STRIPE_API_BASE), whose payment page is allowed too.
 */
const STRIPE_TEST_BASE = config.stripe.apiBase;
const FORM_TARGETS = [
  "'self'",
  "https://checkout.stripe.com",
  ...(STRIPE_TEST_BASE
    ? [`${STRIPE_TEST_BASE.protocol}://${STRIPE_TEST_BASE.host}:${STRIPE_TEST_BASE.port}`]
    : []),
];

// The policy but for its script sources, the same for every page: built once.
const OTHER_DIRECTIVES = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  `form-action ${FORM_TARGETS.join(" ")}`,
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
  ...(HTTPS ? ["upgrade-insecure-requests"] : []),
].join("; ");

/** The Content-Security-Policy of a page whose inline scripts carry `nonce`, or have `hashes`. */
export function documentPolicy(scripts: { nonce: string } | { hashes: readonly string[] }): string {
  const sources = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes;
  return `default-src 'self'; script-src ${["'self'", ...sources].join(" ")}; ${OTHER_DIRECTIVES}`;
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts the server itself wrote into a rendered
 * page, in order, once each: those carrying `writtenWith`, the nonce this render gave React,
 * React Router and our own components (a random value no stored or posted content can know in
 * advance). Anything else in the page that looks like a script — an injection — is not named,
 * so the browser refuses to run it. The hash is of the text between the tags, exactly as sent,
 * as the browser computes it.
 */
export function inlineScriptHashes(html: string, writtenWith: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    const nonce = /\bnonce\s*=\s*"([^"]*)"/i.exec(attributes!)?.[1];
    if (!writtenWith || nonce !== writtenWith) continue;
    // Data blocks (JSON-LD) are never run, so the policy need not name them.
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes!)?.[1]?.toLowerCase();
    if (type && type !== "module" && !type.includes("javascript")) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
