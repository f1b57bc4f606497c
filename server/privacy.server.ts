import { createHash } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import * as orm from "drizzle-orm";
import { orderReference } from "#app/lib/orders.ts";
import {
  NO_ERASURE,
  describeErasure,
  isNothing,
  plannedErasure,
  studentsToErase,
  type ErasureCounts,
  type PersonalData,
  type PersonalDataSummary,
  type PersonalEmail,
  type PersonalInquiry,
  type PersonalOrder,
  type PersonalStudent,
  type PersonalStudentRecord,
  type PersonalSubscription,
  type PrivacyExportFormat,
} from "#app/lib/privacy.ts";
import { recordAudit, type AuditActor } from "./audit.server.ts";
import { config } from "./config.server.ts";
import { csvResponse, type CsvValue } from "./csv.server.ts";
import { db, type Database, type Transaction } from "./db/client.server.ts";
import {
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orderDocuments,
  orderStudents,
  orders,
} from "./db/schema.ts";
import { log } from "./log.server.ts";

/**
 * Data-protection requests (UK GDPR Art. 15 and 17; decision 0020): find everything held about
 * one e-mail address, export it, erase it; and the retention rule that anonymises old inquiries.
 * Every match is on the trimmed, lower-cased address. Callers have passed requireAdmin().
 *
 * Erasure deletes what nothing else needs (inquiries, subscriptions, stored e-mails) and
 * anonymises orders and their students in place: amounts, dates, references and the issued
 * invoices, receipts and credit notes stay, because UK tax law requires them for 6 years
 * (Art. 17(3)(b)). The audit rows name the person only by the SHA-256 of the address.
 */

type Executor = Database | Transaction;

/** How the audit log names a person: the SHA-256 (hex) of the trimmed, lower-cased address. */
export function emailDigest(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

/** Replacement addresses under the reserved .invalid domain (RFC 2606): never deliverable. */
function erasedAddress(kind: "order" | "student" | "inquiry", id: string): string {
  return `${kind}-${id}@erased.invalid`;
}

const ERASED = "Erased";
const ANONYMISED = "Anonymised";

/* ------------------------------------------------------------------ matching */

function sameEmail(column: orm.AnyColumn, email: string): orm.SQL {
  return orm.sql`lower(trim(${column})) = ${email}`;
}

/**
 * Whether an outbox row's recipients (one address or a comma-separated list, each possibly
 * written `Name <address>`) include `email`.
 */
function addressedTo(email: string): orm.SQL {
  return orm.sql`exists (
    select 1 from unnest(string_to_array(${emailOutbox.toAddress}, ',')) as r(addr)
    where lower(trim(coalesce(substring(r.addr from '<([^>]*)>'), r.addr))) = ${email}
  )`;
}

/** Outbox rows addressed to the person, or about their inquiries or their own orders. */
function outboxCondition(email: string, inquiryIds: string[], orderIds: string[]): orm.SQL {
  const parts = [addressedTo(email)];
  if (inquiryIds.length) parts.push(orm.inArray(emailOutbox.inquiryId, inquiryIds));
  if (orderIds.length) parts.push(orm.inArray(emailOutbox.orderId, orderIds));
  return orm.or(...parts)!;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/* ------------------------------------------------------------------ find */

/** Everything held about `email` (already trimmed and lower-cased by the form's schema). */
export async function findPersonalData(
  email: string,
  executor: Executor = db(),
): Promise<PersonalData> {
  const address = email.trim().toLowerCase();
  const inquiryRows = await executor
    .select()
    .from(inquiries)
    .where(sameEmail(inquiries.email, address))
    .orderBy(orm.desc(inquiries.createdAt));
  const orderRows = await executor
    .select()
    .from(orders)
    .where(sameEmail(orders.buyerEmail, address))
    .orderBy(orm.desc(orders.createdAt));
  const orderIds = orderRows.map((o) => o.id);
  const studentsOfOrders = orderIds.length
    ? await executor
        .select()
        .from(orderStudents)
        .where(orm.inArray(orderStudents.orderId, orderIds))
        .orderBy(orderStudents.position)
    : [];
  const documents = orderIds.length
    ? await executor
        .select({
          orderId: orderDocuments.orderId,
          number: orderDocuments.number,
          kind: orderDocuments.kind,
          issuedAt: orderDocuments.issuedAt,
        })
        .from(orderDocuments)
        .where(orm.inArray(orderDocuments.orderId, orderIds))
        .orderBy(orderDocuments.issuedAt)
    : [];
  const otherPlaces = await executor
    .select({ student: orderStudents, order: orders })
    .from(orderStudents)
    .innerJoin(orders, orm.eq(orders.id, orderStudents.orderId))
    .where(
      orm.and(
        sameEmail(orderStudents.email, address),
        orderIds.length ? orm.notInArray(orderStudents.orderId, orderIds) : undefined,
      ),
    )
    .orderBy(orm.desc(orders.createdAt), orderStudents.position);
  const subscriptionRows = await executor
    .select()
    .from(newsletterSubscriptions)
    .where(sameEmail(newsletterSubscriptions.email, address))
    .orderBy(orm.desc(newsletterSubscriptions.subscribedAt));
  const emailRows = await executor
    .select()
    .from(emailOutbox)
    .where(
      outboxCondition(
        address,
        inquiryRows.map((i) => i.id),
        orderIds,
      ),
    )
    .orderBy(orm.desc(emailOutbox.createdAt));

  const student = (s: typeof orderStudents.$inferSelect): PersonalStudent => ({
    id: s.id,
    position: s.position,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
  });

  return {
    email: address,
    inquiries: inquiryRows.map((i): PersonalInquiry => ({
      id: i.id,
      createdAt: iso(i.createdAt),
      name: i.name,
      email: i.email,
      phone: i.phone,
      company: i.company,
      inquiryType: i.inquiryType,
      status: i.status,
      courseTitle: i.courseTitleSnapshot,
      budget: i.budget,
      message: i.message,
      notes: i.notes,
    })),
    orders: orderRows.map((o): PersonalOrder => ({
      id: o.id,
      reference: orderReference(o.id),
      createdAt: iso(o.createdAt),
      status: o.status,
      paymentMethod: o.paymentMethod,
      buyerFirstName: o.buyerFirstName,
      buyerLastName: o.buyerLastName,
      buyerEmail: o.buyerEmail,
      buyerPhone: o.buyerPhone,
      buyerCompany: o.buyerCompany,
      billingOrganisation: o.billingOrganisation,
      billingAddressLine1: o.billingAddressLine1,
      billingAddressLine2: o.billingAddressLine2,
      billingTown: o.billingTown,
      billingPostcode: o.billingPostcode,
      billingCountry: o.billingCountry,
      poNumber: o.poNumber,
      buyerVatNumber: o.buyerVatNumber,
      courseTitle: o.courseTitleSnapshot,
      quantity: o.quantity,
      totalAmountCents: o.totalAmountCents,
      currency: o.currency,
      students: studentsOfOrders.filter((s) => s.orderId === o.id).map(student),
      documents: documents
        .filter((d) => d.orderId === o.id)
        .map((d) => ({ number: d.number, kind: d.kind, issuedAt: iso(d.issuedAt) })),
    })),
    studentRecords: otherPlaces.map(({ student: s, order: o }): PersonalStudentRecord => ({
      ...student(s),
      orderId: o.id,
      orderReference: orderReference(o.id),
      orderCreatedAt: iso(o.createdAt),
      orderStatus: o.status,
      courseTitle: o.courseTitleSnapshot,
    })),
    subscriptions: subscriptionRows.map((s): PersonalSubscription => ({
      id: s.id,
      email: s.email,
      isActive: s.isActive,
      source: s.source,
      subscribedAt: iso(s.subscribedAt),
      consentAt: isoOrNull(s.consentAt),
      consentPage: s.consentPage,
      consentText: s.consentText,
      unsubscribedAt: isoOrNull(s.unsubscribedAt),
    })),
    emails: emailRows.map((e): PersonalEmail => ({
      id: e.id,
      kind: e.kind,
      toAddress: e.toAddress,
      subject: e.subject,
      status: e.status,
      createdAt: iso(e.createdAt),
      sentAt: isoOrNull(e.sentAt),
      text: e.text,
    })),
  };
}

/** The screen's view: the same, without the e-mails' bodies (not shipped to the page). */
export async function personalDataSummary(email: string): Promise<PersonalDataSummary> {
  const data = await findPersonalData(email);
  return { ...data, emails: data.emails.map(({ text: _text, ...email }) => email) };
}

/* ------------------------------------------------------------------ export */

function countsOf(data: PersonalData) {
  return {
    inquiries: data.inquiries.length,
    orders: data.orders.length,
    studentRecords: data.studentRecords.length,
    subscriptions: data.subscriptions.length,
    emails: data.emails.length,
  };
}

const CSV_HEADER = [
  "Kind",
  "Date",
  "Reference",
  "Status",
  "Name",
  "E-mail",
  "Phone",
  "Company",
  "Details",
] as const;

/** One line per thing held, the same columns for every kind; `Details` holds the rest. */
export function personalDataCsvRows(data: PersonalData): CsvValue[][] {
  const rows: CsvValue[][] = [];
  for (const i of data.inquiries) {
    rows.push([
      "Inquiry",
      i.createdAt,
      i.id,
      i.status,
      i.name,
      i.email,
      i.phone,
      i.company,
      [i.inquiryType, i.courseTitle, i.budget, i.message].filter(Boolean).join(" | "),
    ]);
  }
  for (const o of data.orders) {
    const billing = [
      o.billingOrganisation,
      o.billingAddressLine1,
      o.billingAddressLine2,
      o.billingTown,
      o.billingPostcode,
      o.billingCountry,
    ].filter(Boolean);
    rows.push([
      "Order",
      o.createdAt,
      o.reference,
      o.status,
      `${o.buyerFirstName} ${o.buyerLastName}`.trim(),
      o.buyerEmail,
      o.buyerPhone,
      o.buyerCompany,
      [
        `${o.courseTitle} × ${o.quantity}`,
        `total ${(o.totalAmountCents / 100).toFixed(2)} ${o.currency}`,
        billing.length ? `billing: ${billing.join(", ")}` : "",
        o.poNumber ? `PO ${o.poNumber}` : "",
        o.buyerVatNumber ? `VAT ${o.buyerVatNumber}` : "",
        ...o.documents.map((d) => `${d.kind} ${d.number}`),
      ]
        .filter(Boolean)
        .join(" | "),
    ]);
    for (const s of o.students) {
      rows.push([
        "Student on the order",
        o.createdAt,
        o.reference,
        o.status,
        `${s.firstName} ${s.lastName}`.trim(),
        s.email,
        null,
        null,
        `place ${s.position}`,
      ]);
    }
  }
  for (const s of data.studentRecords) {
    rows.push([
      "Student place",
      s.orderCreatedAt,
      s.orderReference,
      s.orderStatus,
      `${s.firstName} ${s.lastName}`.trim(),
      s.email,
      null,
      null,
      `${s.courseTitle}, place ${s.position}`,
    ]);
  }
  for (const s of data.subscriptions) {
    rows.push([
      "Newsletter subscription",
      s.subscribedAt,
      s.id,
      s.isActive ? "active" : "inactive",
      null,
      s.email,
      null,
      null,
      [
        s.source ? `source ${s.source}` : "",
        s.consentAt ? `consent ${s.consentAt}` : "",
        s.consentPage ? `on ${s.consentPage}` : "",
        s.consentText ?? "",
        s.unsubscribedAt ? `unsubscribed ${s.unsubscribedAt}` : "",
      ]
        .filter(Boolean)
        .join(" | "),
    ]);
  }
  for (const e of data.emails) {
    rows.push([
      "E-mail",
      e.createdAt,
      e.id,
      e.status,
      null,
      e.toAddress,
      null,
      null,
      `${e.kind}: ${e.subject}`,
    ]);
  }
  return rows;
}

/**
 * The download for an access request (Art. 15): everything held, as JSON or CSV, never cached.
 * The export is recorded in the audit log (who, when, how much) without the address itself.
 */
export async function exportPersonalData(
  email: string,
  format: PrivacyExportFormat,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<Response> {
  const data = await findPersonalData(email);
  const digest = emailDigest(data.email);
  await recordAudit(db(), actor, {
    action: "privacy.export",
    subjectType: "privacy",
    subjectId: digest,
    summary: `Personal data exported (${format.toUpperCase()})`,
    after: { format, ...countsOf(data) },
  });
  const fileName = `personal-data-${digest.slice(0, 12)}-${now.toISOString().slice(0, 10)}.${format}`;
  if (format === "csv") {
    const rows = personalDataCsvRows(data);
    return csvResponse(
      fileName,
      CSV_HEADER,
      (async function* () {
        yield rows;
      })(),
    );
  }
  const body = JSON.stringify({ exportedAt: now.toISOString(), ...data }, null, 2);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}

/* ------------------------------------------------------------------ stored e-mail copies */

function outboxDirectory(): string {
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

/* ------------------------------------------------------------------ erase */

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
    const data = await findPersonalData(address, tx);
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
    for (const id of studentsToErase(data)) {
      await tx
        .update(orderStudents)
        .set({ firstName: ERASED, lastName: "", email: erasedAddress("student", id) })
        .where(orm.eq(orderStudents.id, id));
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

/* ------------------------------------------------------------------ retention */

export interface RetentionResult {
  inquiries: number;
  emails: number;
}

/** Calendar months before `now` (setUTCMonth rolls 31 March − 1 month over to 3 March: a few days either way is fine here). */
function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/**
 * The retention rule (INQUIRY_RETENTION_MONTHS, 0 = off): inquiries received longer ago than
 * that and not yet anonymised lose the person's details (name, e-mail, phone, company, budget,
 * message and notes), keeping type, status, dates and course for the counts; the e-mails about
 * them are deleted with their stored copies. Idempotent, so every server instance may run it;
 * one audit row (actor: the system) per run that changed anything.
 */
export async function anonymiseExpiredInquiries(
  now: Date = new Date(),
  {
    months = config.inquiryRetentionMonths,
    outboxDir = outboxDirectory(),
  }: { months?: number; outboxDir?: string } = {},
): Promise<RetentionResult> {
  if (!months || months <= 0) return { inquiries: 0, emails: 0 };
  const cutoff = monthsBefore(now, months);
  const outcome = await db().transaction(async (tx) => {
    // Locks the rows, so two instances running at once anonymise each inquiry once.
    const expired = await tx
      .select({ id: inquiries.id })
      .from(inquiries)
      .where(orm.and(orm.lt(inquiries.createdAt, cutoff), orm.isNull(inquiries.anonymisedAt)))
      .for("update", { skipLocked: true });
    if (!expired.length) return { inquiries: 0, emailIds: [] as string[] };
    const ids = expired.map((r) => r.id);
    const deleted = await tx
      .delete(emailOutbox)
      .where(orm.inArray(emailOutbox.inquiryId, ids))
      .returning({ id: emailOutbox.id });
    await tx
      .update(inquiries)
      .set({
        name: ANONYMISED,
        email: orm.sql`'inquiry-' || ${inquiries.id}::text || '@erased.invalid'`,
        phone: null,
        company: null,
        budget: null,
        message: "(anonymised after the retention period)",
        notes: null,
        anonymisedAt: now,
        updatedAt: now,
      })
      .where(orm.inArray(inquiries.id, ids));
    await recordAudit(tx, null, {
      action: "privacy.retention",
      subjectType: "privacy",
      summary: `Retention: ${ids.length} ${ids.length === 1 ? "inquiry" : "inquiries"} older than ${months} months anonymised`,
      after: {
        inquiries: ids.length,
        emails: deleted.length,
        months,
        cutoff: cutoff.toISOString(),
      },
    });
    return { inquiries: ids.length, emailIds: deleted.map((d) => d.id) };
  });
  await removeStoredEmails(outcome.emailIds, outboxDir);
  return { inquiries: outcome.inquiries, emails: outcome.emailIds.length };
}

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
let retentionTimer: NodeJS.Timeout | undefined;
let retentionRun: Promise<void> | undefined;

function runRetention(): void {
  // One run at a time in this process; a run still going when the next is due is left to finish.
  retentionRun ??= retentionPass().finally(() => {
    retentionRun = undefined;
  });
}

async function retentionPass(): Promise<void> {
  try {
    const result = await anonymiseExpiredInquiries();
    if (result.inquiries) log.info(result, "old inquiries anonymised (retention period)");
  } catch (error) {
    log.error({ err: error }, "inquiry retention run failed");
  }
}

/** Hourly in the background (unref'd: it never keeps the process alive); a first run at start. */
export function startRetentionSchedule(intervalMs: number = RETENTION_INTERVAL_MS): void {
  if (retentionTimer || config.inquiryRetentionMonths <= 0) return;
  runRetention();
  retentionTimer = setInterval(runRetention, intervalMs);
  retentionTimer.unref();
}

/** Stops the schedule and waits for a run in progress, so the database can close after it. */
export async function stopRetentionSchedule(): Promise<void> {
  if (retentionTimer) clearInterval(retentionTimer);
  retentionTimer = undefined;
  await retentionRun;
}
