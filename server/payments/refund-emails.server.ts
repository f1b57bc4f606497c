import { formatPence } from "#app/lib/format.ts";
import { orderReference } from "#app/lib/orders.ts";
import { config } from "../config.server.ts";
import type { OutgoingEmail } from "../email/outbox.server.ts";
import {
  escapeHtml,
  greetingName,
  headerText,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
} from "../email/templates.server.ts";
import type { OrderRow } from "../orders/records.server.ts";

/**
 * The e-mails a refund sends (issue 16): to the buyer, the refund and its credit note (attached
 * as a PDF by the outbox worker, from `documentId`); to staff, a refund that Stripe could not
 * complete, since the buyer is then still owed the money.
 */

export interface RefundEmailFacts {
  amountCents: number;
  /** What has been refunded on the order so far, this refund included. */
  refundedAmountCents: number;
  creditNote: { id: string; number: string } | null;
  /** Why, as the credit note says it (the admin's note is not sent to the buyer). */
  reasonLabel: string;
}

const SIGN_OFF_HTML = "<p>Kind regards,<br>The NightWatch training team</p>";
const SIGN_OFF_TEXT = ["Kind regards,", "The NightWatch training team"];

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
  const news = whole
    ? `We have refunded ${amount} to the card you paid with: your order is refunded in full.`
    : `We have refunded ${amount} to the card you paid with.`;
  const timing =
    "Refunds usually reach the card within 5 to 10 working days, depending on the card issuer.";
  const attached = facts.creditNote
    ? `The credit note ${facts.creditNote.number} is attached for your records.`
    : null;
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      `<p>${escapeHtml(news)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<p>${escapeHtml(timing)}</p>` +
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
    timing,
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
  const reference = orderReference(order.id);
  const amount = formatPence(facts.amountCents);
  const subject = headerText(`Refund ${facts.status} (${reference}): ${amount} not paid back`);
  const rows: Row[] = [
    ["Order reference", reference],
    ["Buyer", `${order.buyerFirstName} ${order.buyerLastName} <${order.buyerEmail}>`],
    ["Course", order.courseTitleSnapshot],
    ["Amount", amount],
    ["Stripe refund", facts.refundId],
    ["Stripe status", facts.status],
    ["Failure reason", facts.failureReason],
    ["Credit note already issued", facts.creditNoteNumber],
  ];
  const advice =
    "The buyer is still owed this amount. Refund the order again from its page, or pay the buyer back by bank transfer; the credit note already issued stands for it.";
  const adminUrl = `${config.publicUrl}/admin/payments`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">A refund was not completed</h1>` +
      `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rowsHtml(rows)}</table>` +
      `<p>${escapeHtml(advice)}</p><p><a href="${escapeHtml(adminUrl)}">Payments</a></p>`,
  );
  const text = ["A refund was not completed", "", rowsText(rows), "", advice, adminUrl].join("\n");
  return {
    kind: "refund_failed_alert",
    to: config.adminEmails,
    replyTo: order.buyerEmail,
    orderId: order.id,
    subject,
    html,
    text,
  };
}
