/**
 * One person's data exported for a subject access request (decision 0020): the JSON of all that
 * is held about an address, or the same as CSV rows, audited by the address's digest.
 */
import { type PersonalData, type PrivacyExportFormat } from "#app/lib/admin/privacy.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { csvResponse, type CsvValue } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import { emailDigest } from "./matching.server.ts";
import { findPersonalData } from "./find.server.ts";

function countsOf(data: PersonalData) {
  return {
    inquiries: data.inquiries.length,
    quotes: data.quotes.length,
    licences: data.licences.length,
    orders: data.orders.length,
    studentRecords: data.studentRecords.length,
    subscriptions: data.subscriptions.length,
    waitingList: data.waitingList.length,
    certificates: data.certificates.length,
    emails: data.emails.length,
    records: data.records.length,
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
    for (const r of i.replies) {
      rows.push([
        "Inquiry reply",
        r.createdAt,
        i.id,
        "",
        r.author,
        i.email,
        null,
        null,
        `${r.subject} | ${r.body}`,
      ]);
    }
    for (const n of i.noteList) {
      rows.push(["Inquiry note", n.createdAt, i.id, "", n.author, null, null, null, n.body]);
    }
  }
  for (const q of data.quotes) {
    rows.push([
      "Quote",
      q.createdAt,
      q.number ?? q.id,
      q.status,
      q.contactName,
      q.contactEmail,
      null,
      q.organisation,
      `total ${(q.totalCents / 100).toFixed(2)} GBP`,
    ]);
  }
  for (const l of data.licences) {
    rows.push([
      "Licence",
      l.startsOn,
      l.reference,
      "",
      l.contactName,
      l.contactEmail,
      null,
      l.organisation,
      `${l.seats} seats, ${l.startsOn} to ${l.endsOn}`,
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
  for (const c of data.certificates) {
    rows.push([
      "Certificate of attendance",
      c.issuedAt,
      c.number,
      c.revokedAt ? `revoked ${c.revokedAt}` : "valid",
      c.holderName,
      c.holderEmail,
      null,
      null,
      `${c.courseTitle} | date ${c.startsAt}`,
    ]);
  }
  for (const w of data.waitingList) {
    rows.push([
      "Waiting list entry",
      w.createdAt,
      w.id,
      w.state,
      `${w.firstName} ${w.lastName}`.trim(),
      w.email,
      null,
      w.organisation,
      [
        w.courseTitle ?? "",
        w.dateStartsAt ? `date ${w.dateStartsAt}` : "next date",
        `${w.places} ${w.places === 1 ? "place" : "places"}`,
        `consent ${w.consentAt}`,
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
  for (const r of data.records) {
    rows.push([
      r.kind === "audit" ? "Audit log" : "Order timeline",
      r.at,
      r.id,
      null,
      null,
      null,
      null,
      null,
      `${r.what}: ${r.text}`,
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
