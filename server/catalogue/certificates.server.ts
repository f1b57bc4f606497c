import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import {
  CERTIFICATE_MESSAGES,
  certificatePath,
  type CertificateView,
} from "#app/lib/catalogue/certificates.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { isUniqueViolation } from "../db/errors.server.ts";
import { certificates, courseDates, courses } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderCertificateEmail } from "../email/templates/certificate.server.ts";
import { certificateFilename, drawCertificate } from "./certificate-pdf.server.ts";
import { dateRegister } from "./date-register.server.ts";

/**
 * Certificates of attendance (decision 0036). After a date ends, staff issue one to each student
 * marked present who has a name and an e-mail (all at once from the register, or one place at a
 * time); each is drawn as a PDF, stored with its SHA-256 and e-mailed to its student, in the
 * transaction that records it, with an audit row. The public verification page reads
 * `certificateView`. Revoking keeps the certificate and says so on that page; a revoked place
 * may be issued a corrected one. Callers of the admin functions have passed requireAdmin().
 */

type Executor = Database | Transaction;
export type CertificateRow = typeof certificates.$inferSelect;

/** Crockford's base-32 alphabet: no I, L, O or U, so a number read aloud is not misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** NWC- and 12 random letters of the alphabet (60 bits) in groups of four. */
export function newCertificateNumber(): string {
  const bytes = randomBytes(12);
  const letters = Array.from(bytes, (b) => ALPHABET[b & 31]).join("");
  return `NWC-${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

export const sha256Hex = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export type IssueResult =
  { ok: true; issued: string[] } | { ok: false; status: 404 | 409; message: string };

/**
 * Issues the certificates a date owes: to every present student without a valid one, or only to
 * `place` (an order and its place) — refused, changing nothing, when that place is not owed one.
 * Under an update lock on the date, so two admins clicking at once issue each certificate once;
 * should the one-valid-per-place index refuse a row all the same, nothing is issued and the place
 * is answered as already holding one.
 */
export async function issueCertificates(
  admin: AuditActor,
  dateId: string,
  options: { place?: { orderId: string; position: number }; now?: Date } = {},
): Promise<IssueResult> {
  if (!isUuid(dateId)) return { ok: false, status: 404, message: "Date not found" };
  try {
    return await issueInTransaction(admin, dateId, options);
  } catch (error) {
    if (isUniqueViolation(error, "certificates_one_valid_per_place_idx")) {
      return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.already };
    }
    throw error;
  }
}

function issueInTransaction(
  admin: AuditActor,
  dateId: string,
  { place, now = new Date() }: { place?: { orderId: string; position: number }; now?: Date },
): Promise<IssueResult> {
  return db().transaction(async (tx): Promise<IssueResult> => {
    const [date] = await tx
      .select({ date: courseDates, cpdHours: courses.cpdHours })
      .from(courseDates)
      .innerJoin(courses, eq(courses.id, courseDates.courseId))
      .where(eq(courseDates.id, dateId))
      .for("update", { of: courseDates });
    if (!date) return { ok: false, status: 404, message: "Date not found" };
    if (date.date.state === "cancelled") {
      return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.cancelled };
    }
    if (now < date.date.endsAt) {
      return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.notEnded };
    }
    const register = await dateRegister(dateId, now, tx);
    if (!register) return { ok: false, status: 404, message: "Date not found" };
    const owed = register.places.filter(
      (p) =>
        p.attendance === "present" &&
        p.name &&
        p.email &&
        !(p.certificate && p.certificate.revokedAt === null),
    );
    let chosen = owed;
    if (place) {
      const held = register.places.find(
        (p) => p.orderId === place.orderId && p.position === place.position,
      );
      if (held?.certificate && held.certificate.revokedAt === null) {
        return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.already };
      }
      chosen = owed.filter((p) => p === held);
      if (chosen.length === 0) {
        return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.notPresent };
      }
    }
    if (chosen.length === 0) {
      return { ok: false, status: 409, message: CERTIFICATE_MESSAGES.noneToIssue };
    }
    const when = formatDateRange(date.date.startsAt, date.date.endsAt);
    const issued: string[] = [];
    for (const p of chosen) {
      const number = newCertificateNumber();
      const verifyUrl = `${config.publicUrl}${certificatePath(number)}`;
      const pdf = await drawCertificate({
        number,
        holderName: p.name!,
        courseTitle: register.date.courseTitle,
        startsAt: date.date.startsAt,
        endsAt: date.date.endsAt,
        cpdHours: date.cpdHours,
        issuedAt: now,
        verifyUrl,
      });
      const sha256 = sha256Hex(pdf);
      const [row] = await tx
        .insert(certificates)
        .values({
          number,
          courseDateId: dateId,
          orderId: p.orderId,
          position: p.position,
          holderName: p.name,
          holderEmail: p.email,
          courseTitle: register.date.courseTitle,
          startsAt: date.date.startsAt,
          endsAt: date.date.endsAt,
          cpdHours: date.cpdHours,
          issuedAt: now,
          issuedBy: admin.email,
          pdf,
          sha256,
        })
        .returning({ id: certificates.id });
      const email = renderCertificateEmail({
        holderName: p.name!,
        courseTitle: register.date.courseTitle,
        when,
        number,
        verifyUrl,
      });
      await queueEmails(tx, [
        { kind: "certificate", to: p.email!, ...email, orderId: p.orderId, certificateId: row!.id },
      ]);
      // The summary names the certificate, never the holder; the address in `after` is what an
      // erasure redacts (server/privacy/history.server.ts).
      await recordAudit(tx, admin, {
        action: "certificate.issue",
        subjectType: "certificate",
        subjectId: row!.id,
        summary: `Certificate ${number}: ${register.date.courseTitle}, ${when}, place ${p.position} of ${orderReference(p.orderId)}`,
        after: { number, email: p.email, sha256 },
      });
      issued.push(number);
    }
    return { ok: true, issued };
  });
}

export type RevokeResult =
  { ok: true; number: string } | { ok: false; status: 404 | 409; message: string };

/**
 * Revokes a valid certificate of date `dateId` with the reason given; the verification page then
 * says so.
 */
export async function revokeCertificate(
  admin: AuditActor,
  dateId: string,
  certificateId: string,
  reason: string,
  now: Date = new Date(),
): Promise<RevokeResult> {
  if (!isUuid(certificateId) || !isUuid(dateId)) {
    return { ok: false, status: 404, message: CERTIFICATE_MESSAGES.notFound };
  }
  return db().transaction(async (tx): Promise<RevokeResult> => {
    const [row] = await tx
      .update(certificates)
      .set({ revokedAt: now, revokedBy: admin.email, revocationReason: reason })
      .where(
        and(
          eq(certificates.id, certificateId),
          eq(certificates.courseDateId, dateId),
          isNull(certificates.revokedAt),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx
        .select({ id: certificates.id })
        .from(certificates)
        .where(and(eq(certificates.id, certificateId), eq(certificates.courseDateId, dateId)));
      return exists
        ? { ok: false, status: 409, message: CERTIFICATE_MESSAGES.alreadyRevoked }
        : { ok: false, status: 404, message: CERTIFICATE_MESSAGES.notFound };
    }
    await recordAudit(tx, admin, {
      action: "certificate.revoke",
      subjectType: "certificate",
      subjectId: row.id,
      summary: `Certificate ${row.number} revoked`,
      before: { status: "valid" },
      after: { status: "revoked", reason },
    });
    return { ok: true, number: row.number };
  });
}

/** What the public verification page shows of certificate `number`, or null. */
export async function certificateView(number: string): Promise<CertificateView | null> {
  const [row] = await db()
    .select({
      number: certificates.number,
      holderName: certificates.holderName,
      courseTitle: certificates.courseTitle,
      startsAt: certificates.startsAt,
      endsAt: certificates.endsAt,
      cpdHours: certificates.cpdHours,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      erasedAt: certificates.erasedAt,
      sha256: certificates.sha256,
    })
    .from(certificates)
    .where(eq(certificates.number, number));
  if (!row) return null;
  const seller = config.seller;
  return {
    number: row.number,
    holderName: row.erasedAt ? null : row.holderName,
    courseTitle: row.courseTitle,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    cpdHours: row.cpdHours,
    issuedAt: row.issuedAt.toISOString(),
    issuer: {
      name: seller.legalName,
      address: seller.addressLines.join(", "),
      companyNumber: seller.companyNumber ?? null,
    },
    status: row.revokedAt ? "revoked" : "valid",
    revokedAt: row.revokedAt?.toISOString() ?? null,
    erased: row.erasedAt !== null,
    sha256: row.erasedAt ? null : row.sha256,
  };
}

/** A certificate's issued PDF to attach to its e-mail, or null when it was erased or is unknown. */
export async function certificatePdf(
  certificateId: string,
  executor: Executor = db(),
): Promise<{ filename: string; pdf: Buffer } | null> {
  const [row] = await executor
    .select({ number: certificates.number, pdf: certificates.pdf })
    .from(certificates)
    .where(eq(certificates.id, certificateId));
  if (!row?.pdf) return null;
  return { filename: certificateFilename(row.number), pdf: row.pdf };
}
