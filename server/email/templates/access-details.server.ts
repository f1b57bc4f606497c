import { orderReference } from "#app/lib/orders/orders.ts";
import { escapeHtml, headerText, layout, type RenderedEmail } from "./layout.server.ts";

/**
 * To a student of an on-demand course: the access details staff wrote (from the template on the
 * order page), as plain text and as HTML with each line kept. Staff's words are escaped, never
 * read as HTML; a web address stays text the mail reader may link.
 */
export function renderAccessDetails(
  order: { id: string; courseTitleSnapshot: string },
  text: string,
): RenderedEmail {
  const subject = headerText(
    `Your access to ${order.courseTitleSnapshot} (${orderReference(order.id)})`,
  );
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  const html = layout(
    subject,
    paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join(""),
  );
  return { subject, html, text: `${text.trim()}\n` };
}
