import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { ServerResponse } from "node:http";
import { config } from "./config.server.ts";

/**
 * Response headers that make the site safe to put on the internet. Scripts run only from our
 * origin or with this request's nonce (React Router's inline scripts carry it); styles may be
 * inline because the UI primitives position popovers with style attributes.
 */
// Nonces are cut from a block of random bytes drawn 256 at a time (one call into the CSPRNG
// per 256 responses instead of one each); every nonce still uses bytes no other response saw.
const NONCE_BYTES = 16;
let randomPool = Buffer.alloc(0);
let poolOffset = 0;

function freshNonce(): string {
  if (poolOffset + NONCE_BYTES > randomPool.length) {
    randomPool = randomBytes(NONCE_BYTES * 256);
    poolOffset = 0;
  }
  const nonce = randomPool.toString("base64", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

const HTTPS = config.publicUrl.startsWith("https://");

// The policy is the same for every response but for the nonce: built once, not per request.
const CSP_BEFORE_NONCE = "default-src 'self'; script-src 'self' 'nonce-";
const CSP_AFTER_NONCE = [
  "'",
  " style-src 'self' 'unsafe-inline'",
  " img-src 'self' data: https:",
  " font-src 'self'",
  " connect-src 'self'",
  " form-action 'self' https://checkout.stripe.com",
  " frame-ancestors 'none'",
  " base-uri 'self'",
  " object-src 'none'",
  ...(HTTPS ? [" upgrade-insecure-requests"] : []),
].join(";");
const CSP = (nonce: string) => CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE;

/** Sets the security headers on a response and returns the nonce its scripts must carry. */
export function applySecurityHeaders(res: ServerResponse): string {
  const nonce = freshNonce();
  // Vite's dev server injects its own inline scripts; the policy applies to production builds.
  if (config.env !== "development") res.setHeader("Content-Security-Policy", CSP(nonce));
  if (HTTPS) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  );
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  return nonce;
}

/** The headers as Express middleware; the nonce is left in res.locals.cspNonce for the render. */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.locals.cspNonce = applySecurityHeaders(res);
    next();
  };
}
