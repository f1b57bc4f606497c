import { expect } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { test } from "#tests/support/e2e-test.ts";
import { mailsFor } from "#tests/support/public-forms.ts";
import {
  E2E_ADMIN,
  expectToast,
  holdScripts,
  postEnquiry,
  signInAsAdmin,
} from "#tests/support/e2e-fixtures.ts";

/**
 * An enquiry's own page (decision 0048) in Chromium on the production build: staff open it from
 * the list, set its owner and follow-up day, start a reply from a template, send it, and the
 * enquirer's mailbox (the site's outbox directory: it runs without SMTP; through a real SMTP
 * server in reply-by-smtp.spec.ts) holds it, from the site with the staff member's Reply-To; a
 * note joins the list. What is typed into the composer before the page's scripts run is what is
 * sent.
 */

let run = 0;
const tagOf = (label: string) => `${label}${Date.now().toString(36)}${++run}`;

/** The replies the site's outbox wrote to `to`. */
async function repliesTo(to: string): Promise<ParsedMail[]> {
  const mails = await mailsFor(to);
  return mails
    .filter(
      (m) => m.kind === "inquiry_reply" && !Array.isArray(m.parsed.to) && m.parsed.to?.text === to,
    )
    .map((m) => m.parsed);
}

test("staff reply to an enquiry from its page, and the enquirer receives it", async ({
  page,
  request,
}) => {
  const name = tagOf("Thread");
  const email = `${name.toLowerCase()}@example.com`;
  await postEnquiry(request, name, "Please quote for 3 File Interrogator licences.");
  await signInAsAdmin(page);
  await page.goto(`/admin/inquiries?q=${name.toLowerCase()}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText(/Awaiting reply for/);
  await row.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Please quote for 3 File Interrogator licences.")).toBeVisible();
  await expect(page.getByText("No reply has been sent from here yet.")).toBeVisible();

  // Owner and follow-up day.
  const owner = page.getByLabel("Owner", { exact: true });
  const ownerName = await owner.locator("option").nth(1).textContent();
  await owner.selectOption({ index: 1 });
  await page.getByLabel("Follow up on").fill("2026-12-04");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(page, "Success", "Inquiry updated successfully");
  await expect(page.getByText(`Owner: ${ownerName}`)).toBeVisible();
  await expect(page.getByText("Follow up on 4 Dec 2026")).toBeVisible();

  // A template fills the composer, with the enquirer's name; staff add a line and send.
  await page
    .getByLabel("Template", { exact: true })
    .selectOption({ label: "File Interrogator licence" });
  await page.getByRole("button", { name: "Use template" }).click();
  const body = page.getByLabel("Message", { exact: true });
  await expect(body).toHaveValue(new RegExp(`^Dear ${name},\\n\\nThank you for your interest`));
  await body.press("End");
  await body.pressSequentially("\n\nThree licences would be £1,350 a year.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expectToast(page, "Success", "Reply sent to the enquirer");
  const sent = page.getByRole("list", { name: "Replies sent" }).getByRole("listitem");
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText("Your File Interrogator licence enquiry");
  await expect(sent).toContainText(`by ${E2E_ADMIN.email}`);
  // The reply answers it: replied, nothing due any more.
  await expect(page.getByText("Replied", { exact: true }).first()).toBeVisible();
  // The next reply starts empty.
  await expect(body).toHaveValue("");

  // The enquirer's mailbox.
  await expect.poll(async () => (await repliesTo(email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await repliesTo(email);
  expect(mail!.subject).toBe("Your File Interrogator licence enquiry");
  expect(mail!.replyTo?.text).toBe(E2E_ADMIN.email);
  expect(mail!.text).toContain(`Dear ${name},`);
  expect(mail!.text).toContain("Three licences would be £1,350 a year.");
  expect(mail!.text).toContain("> Please quote for 3 File Interrogator licences.");
  await page.reload();
  await expect(sent).toContainText("Sent");

  // A note joins the list, with who wrote it.
  await page.getByLabel("Internal note").fill("Called: they want 3 seats from January.");
  await page.getByRole("button", { name: "Add Note" }).click();
  await expectToast(page, "Success", "Note added");
  await expect(page.getByRole("list", { name: "Notes" })).toContainText(
    "Called: they want 3 seats from January.",
  );
});

test("a reply typed before the page's scripts run is the one sent", async ({ page, request }) => {
  const name = tagOf("Early");
  const email = `${name.toLowerCase()}@example.com`;
  await postEnquiry(request, name, "Do you run courses in Leeds?");
  await signInAsAdmin(page);
  await page.goto(`/admin/inquiries?q=${name.toLowerCase()}`);
  const href = await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link", { name, exact: true })
    .getAttribute("href");
  const release = await holdScripts(page);
  await page.goto(href!, { waitUntil: "commit" });
  await page.getByLabel("Subject").fill("Courses in Leeds");
  await page.getByLabel("Message", { exact: true }).fill("Yes: our next Leeds date is in March.");
  // Typed into the server's HTML: React has not run yet.
  expect(await page.locator("html").getAttribute("data-hydrated")).toBeNull();
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expectToast(page, "Success", "Reply sent to the enquirer");
  await expect.poll(async () => (await repliesTo(email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await repliesTo(email);
  expect(mail!.subject).toBe("Courses in Leeds");
  expect(mail!.text).toContain("Yes: our next Leeds date is in March.");
});
