import {
  escapeHtml,
  greetingName,
  headerText,
  layout,
  type RenderedEmail,
} from "./layout.server.ts";

/**
 * To a student who attended a date: their certificate of attendance (the PDF is attached from the
 * stored file, server/email/worker.server.ts), its number and the page where anyone can check it
 * (decision 0036).
 */
export function renderCertificateEmail(data: {
  holderName: string;
  courseTitle: string;
  when: string;
  number: string;
  verifyUrl: string;
}): RenderedEmail {
  const subject = headerText(`Your certificate of attendance: ${data.courseTitle}`);
  const lines = [
    `Thank you for attending ${data.courseTitle} (${data.when}).`,
    `Your certificate of attendance, number ${data.number}, is attached as a PDF for your CPD record.`,
    `Anyone you share it with can check it at ${data.verifyUrl}`,
  ];
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(data.holderName))},</p>` +
      lines
        .slice(0, 2)
        .map((l) => `<p>${escapeHtml(l)}</p>`)
        .join("") +
      `<p>Anyone you share it with can check it at <a href="${escapeHtml(data.verifyUrl)}">${escapeHtml(data.verifyUrl)}</a></p>`,
  );
  const text = [`Dear ${greetingName(data.holderName)},`, "", ...lines.flatMap((l) => [l, ""])]
    .join("\n")
    .trimEnd();
  return { subject, html, text: `${text}\n` };
}
