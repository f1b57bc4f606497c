/**
 * Which e-mails an order sends, to whom, ready for the outbox: on an invoice request, an alert
 * to the admin mailboxes and a confirmation to the buyer; when it is paid, a receipt to the
 * buyer and joining details to each student; the invoice on 'Mark Invoiced'; the cancellation.
 * Replies go to the training team's mailbox (staff's alert: to the buyer). How each reads:
 * server/email/templates/.
 */
import { eq } from "drizzle-orm";
import { config } from "../config.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { courses, type courseDates } from "../db/schema.ts";
import type { OutgoingEmail } from "../email/outbox.server.ts";
import type { DocumentRow } from "../invoices/documents.server.ts";
import type { DocumentSnapshot } from "../invoices/snapshot.server.ts";
import { type RenderedEmail } from "../email/templates/layout.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { invitationFor } from "../catalogue/date-invitations.server.ts";
import { bookingUrl } from "./booking-links.server.ts";
import {
  type BookedDate,
  type OrderEmailData,
  renderInvoiceRequestAlert,
  renderInvoiceRequestConfirmation,
  renderJoiningDetails,
} from "../email/templates/order.server.ts";
import {
  renderPlaceGivenBeforePayment,
  renderPlacePassedOn,
  renderStudentChangedToBooker,
  type StudentChange,
} from "../email/templates/booking.server.ts";
import {
  renderInvoiceCredited,
  renderInvoiceIssued,
  renderInvoiceReminder,
  renderOrderCanceled,
  renderReceipt,
} from "../email/templates/order-documents.server.ts";
import {
  type OrderRow,
  type OrderStudent,
  studentsOfOrder,
  orderBooking,
} from "./records.server.ts";

type DateRow = typeof courseDates.$inferSelect;

function orderEmailData(
  order: OrderRow,
  students: OrderStudent[],
  date: BookedDate | null = null,
): OrderEmailData {
  return {
    id: order.id,
    date,
    ...orderBooking(order),
    vatAmountCents: order.vatAmountCents,
    vatRateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
    createdAt: order.createdAt,
    bookingUrl: bookingUrl(order.id, date?.endsAt ?? null),
    students: order.isBuyerStudent
      ? [
          {
            firstName: order.buyerFirstName,
            lastName: order.buyerLastName,
            email: order.buyerEmail,
          },
        ]
      : students,
  };
}

/**
 * One of an order's e-mails, ready for the outbox; replies go to the training team's mailbox
 * unless said otherwise (staff's alert: to the buyer).
 */
function orderEmail(
  order: OrderRow,
  kind: string,
  to: string | string[],
  rendered: RenderedEmail,
  replyTo: string | null = config.mailReplyTo,
): OutgoingEmail {
  return { kind, to, replyTo, orderId: order.id, ...rendered };
}

/** An invoice request's two e-mails: the alert to staff and the confirmation to the buyer. */
export function invoiceRequestEmails(
  order: OrderRow,
  students: OrderStudent[],
  options: { held?: boolean; date?: BookedDate | null } = {},
): OutgoingEmail[] {
  const data = orderEmailData(order, students, options.date);
  const adminUrl = `${config.publicUrl}/admin/payments`;
  return [
    orderEmail(
      order,
      "invoice_request_alert",
      config.adminEmails,
      renderInvoiceRequestAlert(data, adminUrl, options),
      order.buyerEmail,
    ),
    orderEmail(
      order,
      "invoice_request_confirmation",
      order.buyerEmail,
      renderInvoiceRequestConfirmation(data),
    ),
  ];
}

/**
 * The receipt to the buyer and joining details to every student, for an order just paid; read
 * inside the transaction that marks it paid, so the e-mails are queued with the change. A card
 * order's VAT receipt (`receipt`, issued in that transaction) is attached to the buyer's; a
 * student of a scheduled date gets its calendar invitation with their joining details.
 */
export async function paidOrderEmails(
  tx: Transaction,
  order: OrderRow,
  options: { receipt?: DocumentRow | null; paidAt?: Date } = {},
): Promise<OutgoingEmail[]> {
  const students = await studentsOfOrder(tx, order.id);
  const date = await bookedDateOf(tx, order.courseDateId);
  const data = orderEmailData(order, students, date);
  const courseUrl = await courseUrlOf(tx, order);
  const receipt = options.receipt ?? null;
  return [
    {
      ...orderEmail(
        order,
        "order_receipt",
        order.buyerEmail,
        renderReceipt(
          data,
          options.paidAt ?? new Date(),
          receipt ? (receipt.snapshot as DocumentSnapshot) : null,
        ),
      ),
      documentId: receipt?.id ?? null,
    },
    ...data.students.map((student) => joiningEmail(order, data, student, courseUrl, date)),
  ];
}

async function courseUrlOf(tx: Transaction, order: OrderRow): Promise<string | null> {
  const [course] = order.courseId
    ? await tx.select({ slug: courses.slug }).from(courses).where(eq(courses.id, order.courseId))
    : [];
  return course ? `${config.publicUrl}/courses/${encodeURIComponent(course.slug)}` : null;
}

/** One student's joining details; a dated place comes with its calendar invitation (decision 0033). */
function joiningEmail(
  order: OrderRow,
  data: OrderEmailData,
  student: OrderStudent,
  courseUrl: string | null,
  date: DateRow | null,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "course_joining_details",
      student.email,
      renderJoiningDetails(data, student, courseUrl),
    ),
    calendar:
      date?.state === "scheduled"
        ? invitationFor(date, data.courseTitle, student, { method: "REQUEST" })
        : null,
  };
}

/**
 * A place given to someone else (decision 0037), read inside the change's transaction (`order` as
 * it now is, with its booked date): the booker is told; whoever held the place is told and their
 * calendar invitation withdrawn; the new student gets the joining details with the invitation once
 * the order is paid, else a note that they follow the payment.
 */
export async function studentChangedEmails(
  tx: Transaction,
  order: OrderRow,
  date: DateRow | null,
  change: Omit<StudentChange, "date" | "booker" | "courseTitle" | "reference">,
): Promise<OutgoingEmail[]> {
  const letter: StudentChange = {
    ...change,
    reference: orderReference(order.id),
    courseTitle: order.courseTitleSnapshot,
    date,
    booker: {
      firstName: order.buyerFirstName,
      name: `${order.buyerFirstName} ${order.buyerLastName}`.trim(),
      organisation: order.billingOrganisation ?? order.buyerCompany,
    },
  };
  const scheduled = date?.state === "scheduled" ? date : null;
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const from = change.from;
  const toBooker = orderEmail(
    order,
    "student_changed",
    order.buyerEmail,
    renderStudentChangedToBooker(letter),
  );
  const mails: OutgoingEmail[] = [toBooker];
  if (from && !same(from.email, change.to.email)) {
    const withdrawn = scheduled
      ? invitationFor(scheduled, order.courseTitleSnapshot, from, { method: "CANCEL" })
      : null;
    if (same(from.email, order.buyerEmail)) {
      // The booker gave away their own place: one letter, with the withdrawal.
      toBooker.calendar = withdrawn;
    } else {
      mails.push({
        ...orderEmail(
          order,
          "place_passed_on",
          from.email,
          renderPlacePassedOn({ ...letter, from }),
        ),
        calendar: withdrawn,
      });
    }
  }
  if (order.status === "paid") {
    const students = await studentsOfOrder(tx, order.id);
    const data = orderEmailData(order, students, date);
    mails.push(joiningEmail(order, data, change.to, await courseUrlOf(tx, order), date));
  } else {
    mails.push(
      orderEmail(order, "place_given", change.to.email, renderPlaceGivenBeforePayment(letter)),
    );
  }
  return mails;
}

/** 'Mark Invoiced': the invoice, to the buyer, with the invoice attached. */
export function invoiceIssuedEmail(
  order: OrderRow,
  students: OrderStudent[],
  invoice: DocumentRow,
  date: BookedDate | null = null,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "invoice_issued",
      order.buyerEmail,
      renderInvoiceIssued(
        orderEmailData(order, students, date),
        invoice.snapshot as DocumentSnapshot,
      ),
    ),
    documentId: invoice.id,
  };
}

/** A reminder of an unpaid invoice, the invoice attached again (decision 0040). */
export function invoiceReminderEmail(
  order: OrderRow,
  students: OrderStudent[],
  invoice: DocumentRow,
  owing: { owedCents: number; daysOverdue: number },
  date: BookedDate | null = null,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "invoice_reminder",
      order.buyerEmail,
      renderInvoiceReminder(
        orderEmailData(order, students, date),
        invoice.snapshot as DocumentSnapshot,
        owing,
      ),
    ),
    documentId: invoice.id,
  };
}

/**
 * An invoice corrected and re-issued: the credit note for the old one, then the corrected
 * invoice, each letter carrying its PDF.
 */
export function invoiceReissuedEmails(
  order: OrderRow,
  students: OrderStudent[],
  documents: { creditNote: DocumentRow; invoice: DocumentRow },
  date: BookedDate | null = null,
): OutgoingEmail[] {
  const { creditNote, invoice } = documents;
  return [
    {
      ...orderEmail(
        order,
        "invoice_credited",
        order.buyerEmail,
        renderInvoiceCredited(
          orderEmailData(order, students, date),
          creditNote.snapshot as DocumentSnapshot,
          invoice,
        ),
      ),
      documentId: creditNote.id,
    },
    invoiceIssuedEmail(order, students, invoice, date),
  ];
}

/** An admin's cancellation, told to the buyer; the credit note attached when one was issued. */
export function orderCanceledEmail(
  order: OrderRow,
  students: OrderStudent[],
  creditNote: DocumentRow | null,
  date: BookedDate | null = null,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "order_canceled",
      order.buyerEmail,
      renderOrderCanceled(
        orderEmailData(order, students, date),
        creditNote ? (creditNote.snapshot as DocumentSnapshot) : null,
      ),
    ),
    documentId: creditNote?.id ?? null,
  };
}
