/**
 * A reply staff send from an enquiry's page (decision 0048): what they wrote, signed with their
 * name, above the enquiry it answers. It goes from the site's address; its Reply-To is theirs.
 */
import {
  escapeHtml,
  formatSubmissionDate,
  headerText,
  layout,
  type RenderedEmail,
} from "./layout.server.ts";

export interface InquiryReplyEmailData {
  subject: string;
  body: string;
  /** The staff member's name, under "Kind regards". */
  senderName: string;
  /** The enquiry answered, quoted below. */
  message: string;
  submittedAt: Date;
}

function paragraphsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

export function renderInquiryReply(data: InquiryReplyEmailData): RenderedEmail {
  const sender = headerText(data.senderName, 80) || "The NightWatch team";
  const wrote = `On ${formatSubmissionDate(data.submittedAt)} you wrote:`;
  const html = layout(
    data.subject,
    `${paragraphsHtml(data.body)}<p>Kind regards,<br>${escapeHtml(sender)}<br>NightWatch</p>` +
      `<p style="margin-top:24px;color:#555">${escapeHtml(wrote)}</p>` +
      `<blockquote style="margin:0;padding:0 0 0 12px;border-left:3px solid #ccc;color:#555">${paragraphsHtml(data.message)}</blockquote>`,
  );
  const quoted = data.message
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  const text = [data.body, "", "Kind regards,", sender, "NightWatch", "", wrote, quoted].join("\n");
  return { subject: headerText(data.subject), html, text };
}
