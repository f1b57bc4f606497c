import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import pg from "pg";
import { test } from "#tests/support/e2e-test.ts";
import { E2E_SELLER_ENV, expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { placeOrder } from "#tests/support/checkout-page.ts";
import { outboxDir, siteDatabaseUrl } from "#tests/support/e2e-sites.ts";

/**
 * Who owes what in Chromium on the production build: an invoice issued today is not yet due;
 * another, dated back to have been due 40 UK days ago, is 40 days overdue and sits in the 31–60
 * bucket; staff pause and resume its reminders, with scripts and without; a part payment
 * recorded on the order page leaves the balance owed; the reminder due (`npm run invoices:remind`,
 * as cron would run it) reaches the buyer with what is owed and the invoice attached.
 */

/**
 * Issued documents are final (a trigger refuses changes): no screen can date one back, so the
 * test does, in a session that skips triggers. PostgreSQL only. The due date is set to noon UTC
 * of the UK day `overdue` days ago, which is within that UK day in summer and winter alike, so
 * the count does not depend on the hour the test runs at.
 */
async function dueDaysAgo(orderId: string, overdue: number) {
  const client = new pg.Client({ connectionString: siteDatabaseUrl() });
  await client.connect();
  try {
    await client.query("set session_replication_role = replica");
    const moved = await client.query(
      `update order_documents
          set issued_at = issued_at - make_interval(days => $2 + 30),
              snapshot = jsonb_set(snapshot, '{dueDate}', to_jsonb(to_char(
                ((now() at time zone 'Europe/London')::date - $2::int) + time '12:00',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
        where order_id = $1 and kind = 'invoice'`,
      [orderId, overdue],
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

async function invoicedOrder(page: Page, email: string): Promise<string> {
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  const orderId = (await row.getAttribute("data-order-id"))!;
  const response = await page.request.post("/admin/payments", {
    form: { intent: "status", orderId, status: "invoiced" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBeLessThan(400);
  return orderId;
}

test("unpaid invoices by age; an overdue one's reminders paused and resumed, part paid and reminded", async ({
  page,
  request,
}) => {
  test.skip(!siteDatabaseUrl(), "dating an invoice back needs the site's PostgreSQL database");
  const tag = `owe${Date.now().toString(36)}`;
  const late = {
    firstName: `Late${tag}`,
    email: `late.${tag}@example.com`,
    company: `Late ${tag} Ltd`,
  };
  const fresh = {
    firstName: `New${tag}`,
    email: `new.${tag}@example.com`,
    company: `New ${tag} Ltd`,
  };
  await placeOrder(request, "invoice", late);
  await placeOrder(request, "invoice", fresh);
  await signInAsAdmin(page);
  const lateOrder = await invoicedOrder(page, late.email);
  await invoicedOrder(page, fresh.email);
  await dueDaysAgo(lateOrder, 40);

  await page.goto("/admin/dashboard");
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: "Debtors", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Who Owes What", level: 1 })).toBeVisible();
  await expect(page.getByText(/on the due date and 14 days after/)).toBeVisible();
  const rows = page.getByRole("table", { name: "Unpaid invoices" }).locator("tbody tr");
  const lateRow = rows.filter({ hasText: late.company });
  await expect(lateRow).toContainText("40 days overdue");
  await expect(lateRow).toContainText("£295.00");
  // 30 days' terms: 30 UK days, give or take the clocks changing in between.
  await expect(rows.filter({ hasText: fresh.company })).toContainText(/Due in (29|30|31) days/);
  // In its bucket: the 31–60 card counts it.
  const bucket = page
    .getByRole("heading", { name: "31–60 days overdue", exact: true })
    .locator("xpath=../..");
  await expect(bucket).not.toContainText("£0.00");

  // Pause, with scripts: a toast, and the row says so.
  await page.waitForLoadState("networkidle");
  await lateRow.getByRole("button", { name: /^Pause reminders/ }).click();
  await expectToast(page, "Success", "Reminders paused for this order.");
  await expect(lateRow).toContainText("Paused");

  // Resume, without scripts: the form posts, and the page says what happened.
  const context = await page.context().browser()!.newContext({ javaScriptEnabled: false });
  await context.addCookies(await page.context().cookies());
  const noScript = await context.newPage();
  await noScript.goto("/admin/debtors");
  const noScriptRow = noScript
    .getByRole("table", { name: "Unpaid invoices" })
    .locator("tbody tr")
    .filter({ hasText: late.company });
  await noScriptRow.getByRole("button", { name: /^Resume reminders/ }).click();
  await expect(noScript.getByRole("status")).toContainText("Reminders resumed for this order.");
  await expect(noScriptRow.getByRole("button", { name: /^Pause reminders/ })).toBeVisible();
  await context.close();

  // The order's timeline says both.
  await page.goto(`/admin/payments/${lateOrder}`);
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline.locator('li[data-kind="reminders_paused"]')).toHaveCount(1);
  await expect(timeline.locator('li[data-kind="reminders_resumed"]')).toHaveCount(1);

  // £95.00 arrives: the invoice now owes the rest.
  await page.getByRole("button", { name: "Record Payment" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Amount (£)" }).fill("95");
  await dialog.getByRole("combobox", { name: "Method" }).selectOption("cheque");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expectToast(page, "Payment Recorded", "Recorded: £95.00 received. £200.00 still owed.");
  await expect(timeline.locator('li[data-kind="payment_received"]')).toContainText(
    "£95.00 by cheque",
  );
  await page.goto("/admin/debtors");
  await expect(
    page
      .getByRole("table", { name: "Unpaid invoices" })
      .locator("tbody tr")
      .filter({ hasText: late.company }),
  ).toContainText("£200.00");

  // The reminder due 14 days after the due date, queued by the command cron runs and sent by the
  // site's outbox: the balance owed, and the invoice as a PDF.
  // (The site's own hourly pass may have sent it first: either way it is sent once.)
  execFileSync("node", ["--import", "tsx", "scripts/invoice-reminders.ts"], {
    env: {
      ...process.env,
      ...E2E_SELLER_ENV,
      DATABASE_URL: siteDatabaseUrl()!,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "nw-remind-")),
      LOG_LEVEL: "warn",
    },
    encoding: "utf8",
  });
  let reminder: Awaited<ReturnType<typeof simpleParser>> | undefined;
  await expect
    .poll(
      async () => {
        const files = readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"));
        for (const file of files) {
          const raw = readFileSync(path.join(outboxDir(), file), "utf8");
          const head = raw.slice(0, raw.indexOf("\n\n"));
          if (!/^X-NightWatch-Kind: invoice_reminder$/im.test(head)) continue;
          if (!head.toLowerCase().includes(late.email.toLowerCase())) continue;
          reminder = await simpleParser(raw);
        }
        return reminder !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(reminder!.text).toContain("£200.00");
  const [pdf] = reminder!.attachments;
  expect(pdf!.contentType).toBe("application/pdf");
  expect(pdf!.filename).toMatch(/^INV-\d{4}-\d{4}\.pdf$/);
  expect(pdf!.content.subarray(0, 5).toString()).toBe("%PDF-");
});
