import { inject } from "vitest";

/**
 * The fuzz run's settings: ports, size, seed, the admin's account and the course it buys.
 */

export const buildDir = inject("faultsBuildDir");
export const PORT = 4554;
export const STRIPE_PORT = 4555;
export const COUNT = Number(process.env.FAULTS_FUZZ_COUNT ?? 2800);
/** The share of the run that goes to the admin area, signed in. */
export const ADMIN_SHARE = 0.4;
/** The first admin (`scripts/admin-create.ts`), signed in through better-auth. */
export const ADMIN = { email: "admin@example.com", password: "fuzz-admin-password-0123" };
/** Public forms the signed-in admin also posts to, with the session cookie. */
export const PUBLIC_FORMS = new Set([
  "enquiry",
  "licence",
  "course quote",
  "newsletter",
  "checkout",
]);
export const SEED = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
export const CONCURRENCY = 8;
export const WEBHOOK_SECRET = "whsec_fuzz_0123456789abcdef";
export const COURSE = "introduction-to-counter-fraud";
