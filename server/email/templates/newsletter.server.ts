import { escapeHtml, layout, type RenderedEmail } from "./layout.server.ts";

/**
 * The newsletter's welcome e-mail (`newsletter_welcome`): confirms the sign-up and carries the
 * one-click unsubscribe link, also given to mail clients in the List-Unsubscribe headers.
 */
export function renderNewsletterWelcome(data: { unsubscribeUrl: string }): RenderedEmail {
  const subject = "Welcome to the NightWatch newsletter";
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">Thank you for subscribing</h1>` +
      `<p>You will receive threat intelligence briefings and new course dates from NightWatch, a few times a year.</p>` +
      `<p>Changed your mind? <a href="${escapeHtml(data.unsubscribeUrl)}">Unsubscribe</a> at any time with one click; you will not need to sign in.</p>` +
      `<p>Kind regards,<br>The NightWatch team</p>`,
  );
  const text = [
    "Thank you for subscribing",
    "",
    "You will receive threat intelligence briefings and new course dates from NightWatch, a few times a year.",
    "",
    "Changed your mind? Unsubscribe at any time with one click; you will not need to sign in:",
    data.unsubscribeUrl,
    "",
    "Kind regards,",
    "The NightWatch team",
  ].join("\n");
  return { subject, html, text };
}
