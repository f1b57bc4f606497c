import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import pg from "pg";
import { siteDatabaseUrl } from "#tests/support/e2e-sites.ts";
import { mailsFor } from "#tests/support/public-forms.ts";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, postEnquiry, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * Quotes (decision 0049) in Chromium on the production build: staff make a quote for three File
 * Interrogator licences from an enquiry and send it; the customer opens the e-mailed link with
 * JavaScript off, accepts with a PO; the invoiced order carries it and the licences are on the
 * register; 59 days before their end (`npm run licences:remind`, as cron would run it) the
 * customer is reminded and the register says Expiring.
 */

let run = 0;
const tagOf = (label: string) => `${label}${Date.now().toString(36)}${++run}`;

/** The site's mail of one kind (X-NightWatch-Kind) to one address. */
async function mailsTo(to: string, kind: string): Promise<ParsedMail[]> {
  const mails = await mailsFor(to);
  return mails
    .filter((m) => m.kind === kind && !Array.isArray(m.parsed.to) && m.parsed.to?.text === to)
    .map((m) => m.parsed);
}

test("staff send a quote for 3 licences; the customer accepts it with a PO, without JavaScript", async ({
  page,
  browser,
  request,
}) => {
  const name = tagOf("Buyer");
  const email = `${name.toLowerCase()}@example.com`;
  const po = `PO-${name}`;
  await postEnquiry(request, name, "Please quote for 3 File Interrogator licences.");
  await signInAsAdmin(page);
  await page.goto(`/admin/inquiries?q=${name.toLowerCase()}`);
  await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("link", { name: "Make a quote" }).click();

  // The editor starts from the enquiry.
  await expect(page.getByLabel("Organisation")).toHaveValue("Acme Bank");
  await expect(page.getByLabel("Contact e-mail")).toHaveValue(email);
  await page.locator("#quote-lines-0--description").fill("File Interrogator licence, one year");
  await page.locator("#quote-lines-0--quantity").fill("3");
  await page.locator("#quote-lines-0--unitPrice").fill("450");
  await page.getByLabel("Licences (seats)").fill("3");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Draft quote" })).toBeVisible();

  await page.getByRole("button", { name: `Send to ${email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Send quote" }).click();
  await expectToast(page, "Success", /^Quote Q-\d{4}-\d{4} sent$/);
  const number = (await page.getByRole("heading", { level: 1 }).textContent())!;
  expect(number).toMatch(/^Q-\d{4}-\d{4}$/);

  // The customer's mailbox: the quote, its PDF and the link.
  await expect
    .poll(async () => (await mailsTo(email, "quote")).length, { timeout: 20_000 })
    .toBe(1);
  const [mail] = await mailsTo(email, "quote");
  expect(mail!.subject).toBe(`Quotation ${number} from NightWatch`);
  expect(mail!.attachments.map((a) => a.filename)).toEqual([`${number}.pdf`]);
  const link = /https?:\/\/\S+\/quotes\/\S+/.exec(mail!.text ?? "")![0];

  // The customer's page, checked with axe (it needs scripts: here, in the staff's browser).
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole("heading", { level: 1, name: "For Acme Bank" })).toBeVisible();
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.goBack();

  // The customer, JavaScript off.
  const customer = await browser.newContext({ javaScriptEnabled: false });
  const customerPage = await customer.newPage();
  await customerPage.goto(new URL(link).pathname);
  await expect(
    customerPage.getByRole("heading", { level: 1, name: "For Acme Bank" }),
  ).toBeVisible();
  await expect(customerPage.getByText("£1,350.00").first()).toBeVisible();
  await customerPage.getByLabel("Your name").fill(name);
  await customerPage.getByLabel("Your role").fill("Head of Fraud");
  await customerPage.getByLabel("Purchase order number (optional)").fill(po);
  await customerPage.getByRole("button", { name: "Accept quotation" }).click();
  // Without the confirmation box: refused, and what was typed is still there.
  await expect(customerPage.getByText("Please confirm that you accept")).toBeVisible();
  await expect(customerPage.getByLabel("Purchase order number (optional)")).toHaveValue(po);
  await customerPage.getByLabel(/I accept this quotation/).check();
  await customerPage.getByRole("button", { name: "Accept quotation" }).click();
  await expect(customerPage.getByText("Thank you: the quotation is accepted")).toBeVisible();
  await expect(customerPage.getByText(`purchase order ${po}`)).toBeVisible();
  await customer.close();

  // Staff see it accepted, and the order carries the PO.
  await page.reload();
  await expect(page.getByText("Accepted", { exact: true }).first()).toBeVisible();
  await page.getByRole("link", { name: /^NW-/ }).click();
  await expect(page.getByText(po)).toBeVisible();
  await expect(
    page.getByText(`Quotation ${number}: 3 × File Interrogator licence, one year`).first(),
  ).toBeVisible();

  // The three licences are on the register, for a year from today.
  await page.goto("/admin/licences");
  const licence = page.getByRole("row").filter({ hasText: `from ${number}` });
  await expect(licence).toContainText("Acme Bank");
  // innerText: the cell also holds its column name, shown only as a card on a phone.
  await expect(licence.getByRole("cell").nth(2)).toHaveText("3", { useInnerText: true });
  await expect(licence).toContainText("Active");

  // 59 days before its end, the reminder goes to the customer. The site has no clock to move,
  // and every licence rule compares its dates with today: so the test moves the licence's dates
  // instead (in the site's PostgreSQL database), then runs the reminders as cron would.
  const databaseUrl = siteDatabaseUrl();
  if (!databaseUrl) {
    test.info().annotations.push({
      type: "not run",
      description: "the reminder part moves the licence's dates in the site's PostgreSQL database",
    });
    return;
  }
  const reference = (await licence.getByRole("cell").first().textContent())!.match(
    /FI-\d{4}-\d{4}/,
  )![0];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const moved = await client.query(
      `update licences
          set ends_on = (now() at time zone 'Europe/London')::date + 59,
              starts_on = (now() at time zone 'Europe/London')::date + 60 - interval '1 year'
        where reference = $1`,
      [reference],
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await client.end();
  }
  const printed = execFileSync("node", ["--import", "tsx", "scripts/licence-reminders.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "nw-licence-remind-")),
      LOG_LEVEL: "warn",
    },
    encoding: "utf8",
  });
  expect(printed).toContain("Queued reminders for 1 licence.");
  await expect
    .poll(async () => (await mailsTo(email, "licence_reminder")).length, { timeout: 20_000 })
    .toBe(1);
  const [reminder] = await mailsTo(email, "licence_reminder");
  expect(reminder!.text).toContain(reference);
  expect(reminder!.text).toContain("59 days");
  await page.reload();
  await expect(licence).toContainText("Expiring");
});
