/**
 * One person's data erased (decision 0020): inquiries, subscriptions and stored e-mails deleted
 * (the copies on disk too); orders and their students anonymised in place, since amounts, dates
 * and issued documents must stay for 6 years (UK GDPR Art. 17(3)(b)); the history naming them
 * (audit rows, order notes and timeline) redacted in place.
 */
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import * as orm from "drizzle-orm";
import {
  NO_ERASURE,
  describeErasure,
  isNothing,
  plannedErasure,
  studentsToErase,
  type ErasureCounts,
} from "#app/lib/admin/privacy.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import {
  certificates,
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orderStudents,
  orders,
  waitingListEntries,
} from "../db/schema.ts";
import { log } from "../log.server.ts";
import { anonymiseLicenceContacts, anonymiseQuoteContacts } from "./contacts.server.ts";
import { emailDigest, ERASED, erasedAddress } from "./matching.server.ts";
import { findPersonalDataAndHistory } from "./find.server.ts";
import { redactHistory } from "./history.server.ts";

export function outboxDirectory(): string {
  return path.join(config.dataDir, "outbox");
}

/**
 * Removes the .eml copies of deleted outbox rows (their file names end in `-<row id>.eml`, see
 * the file mailer). Run after the commit: a failure here leaves a file, never an undone erasure;
 * it is logged so an operator can remove it.
 */
export async function removeStoredEmails(
  ids: readonly string[],
  dir: string = outboxDirectory(),
): Promise<number> {
  if (!ids.length) return 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no directory: SMTP delivery, or nothing written yet
  }
  const wanted = new Set(ids);
  let removed = 0;
  for (const name of names) {
    const match = /-([0-9a-f-]{36})\.eml(\.tmp)?$/.exec(name);
    if (!match || !wanted.has(match[1]!)) continue;
    try {
      await rm(path.join(dir, name), { force: true });
      removed += 1;
    } catch (error) {
      log.error({ err: error, file: name }, "could not remove a stored e-mail copy");
    }
  }
  return removed;
}

export interface ErasureResult {
  counts: ErasureCounts;
  /** The toast: what was done, in words. */
  message: string;
}

/**
 * Erasure (Art. 17) of everything held about `email`, in one transaction with its audit row:
 * inquiries and subscriptions deleted; the person's orders and their students, and the person's
 * places on others' orders, anonymised in place; outbox rows addressed to them or about their
 * inquiries and orders deleted, whatever their state (a message not yet sent to someone who asked
 * to be erased must not go). Then the .eml copies of those rows are removed. An address with
 * nothing held changes nothing and writes no audit row.
 */
export async function erasePersonalData(
  email: string,
  actor: AuditActor,
  { now = new Date(), outboxDir = outboxDirectory() }: { now?: Date; outboxDir?: string } = {},
): Promise<ErasureResult> {
  const address = email.trim().toLowerCase();
  const outcome = await db().transaction(async (tx) => {
    // Two erasures of one address (a double post, two admins) run one after the other, so the
    // second finds nothing left and records nothing.
    await tx.execute(orm.sql`select pg_advisory_xact_lock(hashtext(${`privacy:${address}`}))`);
    const { data, history } = await findPersonalDataAndHistory(address, tx);
    const counts = plannedErasure(data);
    if (isNothing(counts)) return { counts: NO_ERASURE, emailIds: [] as string[] };

    const emailIds = data.emails.map((e) => e.id);
    if (emailIds.length) await tx.delete(emailOutbox).where(orm.inArray(emailOutbox.id, emailIds));
    if (data.inquiries.length) {
      await tx.delete(inquiries).where(
        orm.inArray(
          inquiries.id,
          data.inquiries.map((i) => i.id),
        ),
      );
    }
    if (data.subscriptions.length) {
      await tx.delete(newsletterSubscriptions).where(
        orm.inArray(
          newsletterSubscriptions.id,
          data.subscriptions.map((s) => s.id),
        ),
      );
    }
    if (data.waitingList.length) {
      await tx.delete(waitingListEntries).where(
        orm.inArray(
          waitingListEntries.id,
          data.waitingList.map((w) => w.id),
        ),
      );
    }
    for (const order of data.orders) {
      await tx
        .update(orders)
        .set({
          buyerFirstName: ERASED,
          buyerLastName: "",
          buyerEmail: erasedAddress("order", order.id),
          buyerPhone: null,
          buyerCompany: null,
          billingOrganisation: null,
          billingAddressLine1: null,
          billingAddressLine2: null,
          billingTown: null,
          billingPostcode: null,
          poNumber: null,
          buyerVatNumber: null,
          anonymisedAt: now,
          updatedAt: now,
        })
        .where(orm.eq(orders.id, order.id));
    }
    // Quotes and licences keep their numbers, amounts and organisation; the contact goes.
    await anonymiseQuoteContacts(
      tx,
      data.quotes.map((q) => q.id),
      ERASED,
      now,
    );
    await anonymiseLicenceContacts(
      tx,
      data.licences.map((l) => l.id),
      ERASED,
      now,
    );
    // The history naming them: the same rows the search listed, redacted in place.
    await redactHistory(tx, history);
    for (const id of studentsToErase(data)) {
      await tx
        .update(orderStudents)
        .set({ firstName: ERASED, lastName: "", email: erasedAddress("student", id) })
        .where(orm.eq(orderStudents.id, id));
    }
    // Certificates stay, revoked, so their numbers still answer on the verification page; the
    // holder's name, address and the PDF naming them go (decision 0036).
    if (data.certificates.length) {
      await tx
        .update(certificates)
        .set({
          holderName: null,
          holderEmail: null,
          pdf: null,
          sha256: null,
          erasedAt: now,
          revokedAt: orm.sql`coalesce(${certificates.revokedAt}, ${now.toISOString()}::timestamptz)`,
          revokedBy: orm.sql`coalesce(${certificates.revokedBy}, ${actor?.email ?? "privacy"})`,
          revocationReason: orm.sql`coalesce(${certificates.revocationReason}, 'Erased at the holder''s request')`,
        })
        .where(
          orm.inArray(
            certificates.id,
            data.certificates.map((c) => c.id),
          ),
        );
    }
    await recordAudit(tx, actor, {
      action: "privacy.erase",
      subjectType: "privacy",
      subjectId: emailDigest(address),
      summary: `Erasure request: ${describeErasure(counts, true)}`,
      after: { ...counts },
    });
    return { counts, emailIds };
  });
  await removeStoredEmails(outcome.emailIds, outboxDir);
  return { counts: outcome.counts, message: describeErasure(outcome.counts, true) };
}
