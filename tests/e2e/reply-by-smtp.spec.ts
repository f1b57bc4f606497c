import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createAdmin, signIn, startSite, type Site } from "#tests/support/site-process.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/**
 * A reply from an enquiry's page (decision 0048) reaches the enquirer through a real SMTP server:
 * the production build started with SMTP_URL pointing at a sink on loopback, so the message
 * goes through the outbox worker and the SMTP transport, not the file mailer the suite's site
 * uses. From the site's address, with the staff member's Reply-To and the enquiry quoted. It
 * starts its own server, so it runs in the fault stage (playwright.faults.config.ts). Ports:
 * E2E_PORT + 40…42, + 50, + 60 and + 70 are other specs'.
 */

const PORT = Number(process.env.E2E_PORT ?? 4317) + 80;
const ADMIN = { email: "reply-admin@example.com", password: "reply-admin-password-1" };
const FROM = "NightWatch <hello@nightwatch.example>";

let sink: SmtpSink;
let site: Site | undefined;
let dataDir: string;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  // A first start (migrations, demo content) can take longer than a hook's default timeout.
  test.setTimeout(180_000);
  sink = await startSmtpSink();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-reply-smtp-"));
  createAdmin({ ...ADMIN, dataDir });
  site = await startSite({
    port: PORT,
    buildDir: process.env.BUILD_DIR ?? "build",
    dataDir,
    env: { SMTP_URL: sink.url, MAIL_FROM: FROM, FORM_RATE_LIMIT_PER_MINUTE: "1000" },
  });
});

test.afterAll(async () => {
  await site?.stop();
  await sink?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("staff reply to an enquiry from its page; the enquirer's mailbox receives it by SMTP", async ({
  page,
  request,
}) => {
  const email = "morgan.ellis@example.com";
  const posted = await request.post(`${site!.url}/contact`, {
    form: {
      form: "enquiry",
      form_id: "contact",
      name: "Morgan Ellis",
      email,
      company: "Westmoor Credit Union",
      message: "Can you train our fraud team in Leeds?",
    },
  });
  expect(posted.status()).toBe(200);

  const cookie = await signIn(site!.url, ADMIN.email, ADMIN.password);
  await page.context().addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: site!.url };
    }),
  );
  await page.goto(`${site!.url}/admin/inquiries?q=morgan`);
  await page.getByRole("link", { name: "Morgan Ellis", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Morgan Ellis" })).toBeVisible();
  await page.getByLabel("Subject").fill("Training in Leeds");
  await page
    .getByLabel("Message", { exact: true })
    .fill("Dear Morgan,\n\nYes: we run in-house days in Leeds. May we call you on Monday?");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("list", { name: "Replies sent" })).toContainText("Training in Leeds");

  await expect
    .poll(() => sink.messages.filter((m) => m.parsed.subject === "Training in Leeds").length, {
      timeout: 30_000,
    })
    .toBe(1);
  const reply = sink.messages.find((m) => m.parsed.subject === "Training in Leeds")!;
  expect(reply.envelopeTo).toEqual([email]);
  expect(reply.parsed.from?.text).toBe(FROM.replace(/^NightWatch /, '"NightWatch" '));
  expect(reply.parsed.replyTo?.text).toBe(ADMIN.email);
  expect(reply.parsed.text).toContain("Yes: we run in-house days in Leeds.");
  expect(reply.parsed.text).toContain("> Can you train our fraud team in Leeds?");
  // The thread shows it delivered once the worker has handed it to the SMTP server.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole("list", { name: "Replies sent" }).textContent();
      },
      { timeout: 30_000 },
    )
    .toContain("Sent");
});
