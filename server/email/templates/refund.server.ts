import { formatPence } from "#app/lib/format.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { config } from "../../config.server.ts";
import type { OutgoingEmail } from "../outbox.server.ts";
import {
  escapeHtml,
  greetingName,
  headerText,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
  SIGN_OFF_HTML,
  SIGN_OFF_TEXT,
} from "./layout.server.ts";
import type { OrderRow } from "../../orders/records.server.ts";

/**
 * The e-mails a refund sends (decision 0016): to the buyer, the refund and its credit note
 * (attached as a PDF by the outbox worker, from `documentId`); to staff, a refund that Stripe could
 * not complete, since the buyer is then still owed the money, and a payment on a cancelled order,
 * which is owed back.
 */

export interface RefundEmailFacts {
  amountCents: number;
  /** What has been refunded on the order so far, this refund included. */
  refundedAmountCents: number;
  creditNote: { id: string; number: string } | null;
  /** Why, as the credit note says it (the admin's note is not sent to the buyer). */
  reasonLabel: string;
  /** How it was paid back: to the card through Stripe (the default), or by staff outside it. */
  paidBack?: "stripe" | "bank_transfer" | "cheque" | "other";
}

const PAID_BACK: Record<
  NonNullable<RefundEmailFacts["paidBack"]>,
  { how: string; timing: string | null }
> = {
  stripe: {
    how: "to the card you paid with",
    timing:
      "Refunds usually reach the card within 5 to 10 working days, depending on the card issuer.",
  },
  bank_transfer: {
    how: "by bank transfer",
    timing: "It should reach your account within a few working days.",
  },
  cheque: { how: "by cheque", timing: null },
  other: { how: "to you", timing: null },
};

/** To the buyer: the refund, its amount, and the credit note that goes with it. */
export function renderRefundEmail(order: OrderRow, facts: RefundEmailFacts): RenderedEmail {
  const reference = orderReference(order.id);
  const amount = formatPence(facts.amountCents);
  const subject = headerText(`Refund of ${amount}: ${order.courseTitleSnapshot} (${reference})`);
  const whole = facts.refundedAmountCents >= order.totalAmountCents;
  const rows: Row[] = [
    ["Order reference", reference],
    ["Course", order.courseTitleSnapshot],
    ["Amount refunded", amount],
    ["Refunded in total", whole ? null : formatPence(facts.refundedAmountCents)],
    ["Order total", formatPence(order.totalAmountCents)],
    ["Reason", facts.reasonLabel],
    ["Credit note", facts.creditNote?.number],
  ];
  const { how, timing } = PAID_BACK[facts.paidBack ?? "stripe"];
  const news = whole
    ? `We have refunded ${amount} ${how}: your order is refunded in full.`
    : `We have refunded ${amount} ${how}.`;
  const attached = facts.creditNote
    ? `The credit note ${facts.creditNote.number} is attached for your records.`
    : null;
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      `<p>${escapeHtml(news)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      (timing ? `<p>${escapeHtml(timing)}</p>` : "") +
      (attached ? `<p>${escapeHtml(attached)}</p>` : "") +
      `<p>Please quote your order reference in any correspondence.</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    `Dear ${greetingName(order.buyerFirstName)},`,
    "",
    news,
    "",
    rowsText(rows),
    "",
    ...(timing ? [timing] : []),
    ...(attached ? [attached] : []),
    "",
    "Please quote your order reference in any correspondence.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

export function refundEmail(order: OrderRow, facts: RefundEmailFacts): OutgoingEmail {
  return {
    kind: "order_refund",
    to: order.buyerEmail,
    replyTo: config.mailReplyTo,
    orderId: order.id,
    documentId: facts.creditNote?.id ?? null,
    ...renderRefundEmail(order, facts),
  };
}

/**
 * An e-mail to staff about one order: a heading, the order's reference, buyer and course, the
 * facts of the matter, what to do, and a link. Replies go to the buyer.
 */
function staffOrderAlert(
  order: OrderRow,
  alert: {
    kind: string;
    subject: string;
    heading: string;
    facts: Row[];
    advice: string;
    link: { url: string; label: string };
  },
): OutgoingEmail {
  const subject = headerText(alert.subject);
  const rows: Row[] = [
    ["Order reference", orderReference(order.id)],
    ["Buyer", `${order.buyerFirstName} ${order.buyerLastName} <${order.buyerEmail}>`],
    ["Course", order.courseTitleSnapshot],
    ...alert.facts,
  ];
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(alert.heading)}</h1>` +
      `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rowsHtml(rows)}</table>` +
      `<p>${escapeHtml(alert.advice)}</p><p><a href="${escapeHtml(alert.link.url)}">${escapeHtml(alert.link.label)}</a></p>`,
  );
  const text = [alert.heading, "", rowsText(rows), "", alert.advice, alert.link.url].join("\n");
  return {
    kind: alert.kind,
    to: config.adminEmails,
    replyTo: order.buyerEmail,
    orderId: order.id,
    subject,
    html,
    text,
  };
}

/** To staff: a refund failed or was cancelled in Stripe, so the buyer has not been paid back. */
export function refundFailedAlert(
  order: OrderRow,
  facts: {
    refundId: string;
    amountCents: number;
    status: string;
    failureReason: string | null;
    creditNoteNumber: string | null;
  },
): OutgoingEmail {
  const amount = formatPence(facts.amountCents);
  return staffOrderAlert(order, {
    kind: "refund_failed_alert",
    subject: `Refund ${facts.status} (${orderReference(order.id)}): ${amount} not paid back`,
    heading: "A refund was not completed",
    facts: [
      ["Amount", amount],
      ["Stripe refund", facts.refundId],
      ["Stripe status", facts.status],
      ["Failure reason", facts.failureReason],
      ["Credit note already issued", facts.creditNoteNumber],
    ],
    advice:
      "The buyer is still owed this amount. Refund the order again from its page, or pay the buyer back by bank transfer; the credit note already issued stands for it.",
    link: { url: `${config.publicUrl}/admin/payments`, label: "Payments" },
  });
}

/**
 * To staff: a card payment arrived for an order already cancelled (the buyer paid on a checkout
 * page that was still open), so the money is here for an order that is not: refund it.
 */
export function paidAfterCancellationAlert(order: OrderRow): OutgoingEmail {
  const amount = formatPence(order.totalAmountCents);
  return staffOrderAlert(order, {
    kind: "paid_after_cancellation_alert",
    subject: `Paid after cancellation (${orderReference(order.id)}): ${amount} to refund`,
    heading: "A cancelled order was paid",
    facts: [
      ["Amount paid", amount],
      ["Stripe payment", order.stripePaymentIntentId],
    ],
    advice:
      "The order stays cancelled. Refund the payment from the order's page (the buyer gets a credit note by e-mail), or contact the buyer first if they still want the places.",
    link: { url: `${config.publicUrl}/admin/payments/${order.id}`, label: "Open the order" },
  });
}
