import { z } from "zod/mini";

/**
 * Certificates of attendance (decision 0036), as both sides see them: the number's shape, the
 * public verification page's path and what it shows, and the register's words. Safe on both
 * sides: no server imports here.
 */

/** NWC- then three groups of four Crockford base-32 letters (no I, L, O or U). */
export const CERTIFICATE_NUMBER =
  /^NWC-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * A number as typed or read aloud, in its stored form: upper case, and the letters people
 * confuse with digits read as those digits (O as 0, I and L as 1), as Crockford's alphabet says.
 */
export function normaliseCertificateNumber(input: string): string {
  const letters = input
    .trim()
    .toUpperCase()
    .replace(/^NWC-/, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  return `NWC-${letters}`;
}

export const certificatePath = (number: string) => `/certificates/${encodeURIComponent(number)}`;

/** What /certificates/{number} shows; nothing of the holder once their data was erased. */
export interface CertificateView {
  number: string;
  /** Null once the holder's data was erased. */
  holderName: string | null;
  courseTitle: string;
  startsAt: string;
  endsAt: string;
  /** e.g. "6.5"; null when the course states none. */
  cpdHours: string | null;
  issuedAt: string;
  issuer: { name: string; address: string; companyNumber: string | null };
  status: "valid" | "revoked";
  revokedAt: string | null;
  /** True when the holder's data was erased (the certificate is then revoked too). */
  erased: boolean;
  /** SHA-256 of the issued PDF (hex); null once erased. */
  sha256: string | null;
}

/** A certificate on the register: its place's latest one. */
export interface PlaceCertificate {
  number: string;
  issuedAt: string;
  revokedAt: string | null;
}

export const CERTIFICATE_MESSAGES = {
  issued: (n: number) =>
    n === 1 ? "1 certificate issued and e-mailed" : `${n} certificates issued and e-mailed`,
  noneToIssue:
    "No certificates to issue: every student marked present who has a name and an e-mail already has one.",
  notEnded: "Certificates can be issued once the date has ended.",
  cancelled: "This date was cancelled: no certificates can be issued.",
  notPresent:
    "Only a student marked present, with a name and an e-mail, can be given a certificate.",
  already: "This student already has a valid certificate.",
  revoked: (number: string) => `Certificate ${number} revoked`,
  alreadyRevoked: "This certificate was already revoked.",
  reasonNeeded: "Say why the certificate is revoked (at most 300 characters).",
  notFound: "Certificate not found",
  failed: "Could not issue the certificates",
} as const;

/** How hours print: "6.5 CPD hours", "1 CPD hour". */
export function cpdHoursText(hours: string | null): string | null {
  if (hours === null) return null;
  const n = Number(hours);
  if (!Number.isFinite(n) || n <= 0) return null;
  const text = Number.isInteger(n) ? String(n) : n.toFixed(1);
  return `${text} CPD ${n === 1 ? "hour" : "hours"}`;
}

/** The register's posts: one place's certificate, and a revocation with its reason. */
export const issueCertificateSchema = z.object({
  orderId: z.uuid(),
  position: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10)),
});

export const revokeCertificateSchema = z.object({
  certificateId: z.uuid(),
  reason: z
    .string({ error: CERTIFICATE_MESSAGES.reasonNeeded })
    .check(
      z.trim(),
      z.minLength(1, CERTIFICATE_MESSAGES.reasonNeeded),
      z.maxLength(300, CERTIFICATE_MESSAGES.reasonNeeded),
    ),
});
