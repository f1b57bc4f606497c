/**
 * Data-protection requests (UK GDPR Art. 15 and 17; decision 0020): find everything held about
 * one e-mail address (this file), export it (export.server.ts), erase it (erase.server.ts); and
 * the retention rule that anonymises old inquiries (retention.server.ts). Every match is on the
 * trimmed, lower-cased address (matching.server.ts). Callers have passed requireAdmin().
 *
 * Erasure deletes what nothing else needs (inquiries, subscriptions, stored e-mails) and
 * anonymises orders and their students in place: amounts, dates, references and the issued
 * invoices, receipts and credit notes stay, because UK tax law requires them for 6 years
 * (Art. 17(3)(b)). The history that names them (audit rows, order notes and timeline) is
 * redacted in place (history.server.ts); the erasure's own audit row names the person only by a
 * keyed hash of the address.
 */

import * as orm from "drizzle-orm";
import { orderReference } from "#app/lib/orders/orders.ts";
import {
  type PersonalCertificate,
  type PersonalData,
  type PersonalDataSummary,
  type PersonalEmail,
  type PersonalInquiry,
  type PersonalOrder,
  type PersonalStudent,
  type PersonalStudentRecord,
  type PersonalSubscription,
  type PersonalWaitingListEntry,
} from "#app/lib/admin/privacy.ts";
import { db } from "../db/client.server.ts";
import {
  certificates,
  courseDates,
  courses,
  emailOutbox,
  inquiries,
  inquiryNotes,
  inquiryReplies,
  licences,
  quotes,
  newsletterSubscriptions,
  orderDocuments,
  orderStudents,
  orders,
  waitingListEntries,
} from "../db/schema.ts";
import { historyOf, personalRecords, type HistoryRedaction } from "./history.server.ts";
import { type Executor, iso, isoOrNull, outboxCondition, sameEmail } from "./matching.server.ts";

/** Everything held about `email` (already trimmed and lower-cased by the form's schema). */
export async function findPersonalData(
  email: string,
  executor: Executor = db(),
): Promise<PersonalData> {
  return (await findPersonalDataAndHistory(email, executor)).data;
}

/**
 * The same, with the history rows as the erasure redacts them (history.server.ts): an erasure
 * reads both at once, in its transaction, rather than looking the history up twice.
 */
export async function findPersonalDataAndHistory(
  email: string,
  executor: Executor,
): Promise<{ data: PersonalData; history: HistoryRedaction }> {
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
  const waitingRows = await executor
    .select({
      entry: waitingListEntries,
      courseTitle: courses.title,
      startsAt: courseDates.startsAt,
    })
    .from(waitingListEntries)
    .leftJoin(courses, orm.eq(courses.id, waitingListEntries.courseId))
    .leftJoin(courseDates, orm.eq(courseDates.id, waitingListEntries.courseDateId))
    .where(sameEmail(waitingListEntries.email, address))
    .orderBy(orm.desc(waitingListEntries.createdAt));
  const certificateRows = await executor
    .select({
      id: certificates.id,
      number: certificates.number,
      holderName: certificates.holderName,
      holderEmail: certificates.holderEmail,
      courseTitle: certificates.courseTitle,
      startsAt: certificates.startsAt,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
    })
    .from(certificates)
    .where(sameEmail(certificates.holderEmail, address))
    .orderBy(orm.desc(certificates.issuedAt));
  const inquiryIds = inquiryRows.map((i) => i.id);
  const [replyRows, noteRows] = inquiryIds.length
    ? await Promise.all([
        executor
          .select()
          .from(inquiryReplies)
          .where(orm.inArray(inquiryReplies.inquiryId, inquiryIds))
          .orderBy(orm.asc(inquiryReplies.createdAt)),
        executor
          .select()
          .from(inquiryNotes)
          .where(orm.inArray(inquiryNotes.inquiryId, inquiryIds))
          .orderBy(orm.asc(inquiryNotes.createdAt)),
      ])
    : [[], []];
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

  const history = await historyOf(executor, address, {
    inquiryIds: inquiryRows.map((i) => i.id),
    subscriptionIds: subscriptionRows.map((s) => s.id),
    orderIds,
  });

  const student = (s: typeof orderStudents.$inferSelect): PersonalStudent => ({
    id: s.id,
    position: s.position,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
  });

  const [quoteRows, licenceRows] = await Promise.all([
    executor
      .select()
      .from(quotes)
      .where(sameEmail(quotes.contactEmail, address))
      .orderBy(orm.desc(quotes.createdAt)),
    executor
      .select()
      .from(licences)
      .where(sameEmail(licences.contactEmail, address))
      .orderBy(orm.desc(licences.startsOn)),
  ]);

  const data: PersonalData = {
    email: address,
    quotes: quoteRows.map((q) => ({
      id: q.id,
      number: q.number,
      status: q.status,
      createdAt: iso(q.createdAt),
      organisation: q.organisation,
      contactName: q.contactName,
      contactEmail: q.contactEmail,
      totalCents: q.totalCents,
    })),
    licences: licenceRows.map((l) => ({
      id: l.id,
      reference: l.reference,
      organisation: l.organisation,
      contactName: l.contactName,
      contactEmail: l.contactEmail,
      seats: l.seats,
      startsOn: l.startsOn,
      endsOn: l.endsOn,
    })),
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
      replies: replyRows
        .filter((r) => r.inquiryId === i.id)
        .map((r) => ({
          createdAt: iso(r.createdAt),
          author: r.author,
          subject: r.subject,
          body: r.body,
        })),
      noteList: noteRows
        .filter((n) => n.inquiryId === i.id)
        .map((n) => ({ createdAt: iso(n.createdAt), author: n.author, body: n.body })),
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
    waitingList: waitingRows.map(
      ({ entry: w, courseTitle, startsAt }): PersonalWaitingListEntry => ({
        id: w.id,
        createdAt: iso(w.createdAt),
        firstName: w.firstName,
        lastName: w.lastName,
        email: w.email,
        organisation: w.organisation,
        places: w.places,
        state: w.state,
        courseTitle,
        dateStartsAt: startsAt ? iso(startsAt) : null,
        consentAt: iso(w.consentAt),
      }),
    ),
    certificates: certificateRows.map((c): PersonalCertificate => ({
      ...c,
      startsAt: iso(c.startsAt),
      issuedAt: iso(c.issuedAt),
      revokedAt: isoOrNull(c.revokedAt),
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
    records: personalRecords(history),
  };
  return { data, history };
}

/** The screen's view: the same, without the e-mails' bodies (not shipped to the page). */
export async function personalDataSummary(email: string): Promise<PersonalDataSummary> {
  const data = await findPersonalData(email);
  return { ...data, emails: data.emails.map(({ text: _text, ...email }) => email) };
}
