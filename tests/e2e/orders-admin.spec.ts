import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { closeWithEscape } from "#tests/support/dialogs.ts";
import {
  bookByInvoice,
  E2E_ADMIN,
  expectToast,
  signInAsAdmin,
  type InvoiceBooking,
} from "#tests/support/e2e-fixtures.ts";

/**
 * The admin order page and the safer Payments actions (decisions 0015, 0016) in Chromium: an order
 * booked through the public checkout is found in the list (by reference, by a student), opened,
 * noted, marked invoiced through its confirmation, canceled with the buyer notified; a change
 * someone else made first is reported and shown; the table fits a 1366 px laptop and a 375 px
 * phone.
 */

let run = 0;
const tagOf = (label: string) => `${label}${Date.now().toString(36)}${++run}`;

/** A booking with every detail given, which the checks below read back. */
type Booking = Required<InvoiceBooking>;

function booking(tag: string, students = 2): Booking {
  return {
    firstName: `Ivy${tag}`,
    email: `ivy.${tag}@example.com`,
    company: `Ivy ${tag} Ltd`,
    phone: "+44 20 7946 0123",
    students: Array.from({ length: students }, (_, i) => ({
      firstName: `Stu${i + 1}${tag}`,
      email: `stu${i + 1}.${tag}@example.com`,
    })),
  };
}

const rowsOf = (page: Page) => page.getByRole("table", { name: "Orders" }).locator("tbody tr");

/** The list searched for `text`, with exactly one order found: its row. */
async function findOne(page: Page, text: string) {
  await page.goto(`/admin/payments?q=${encodeURIComponent(text)}`);
  await expect(rowsOf(page)).toHaveCount(1);
  return rowsOf(page).first();
}

async function openOrderFromList(page: Page, text: string): Promise<string> {
  const row = await findOne(page, text);
  const link = row.getByRole("link", { name: /^NW-[0-9A-F]{8}$/ });
  const reference = (await link.innerText()).trim();
  await link.click();
  await expect(page.getByRole("heading", { name: `Order ${reference}`, level: 1 })).toBeVisible();
  // Hydrated: the actions' dialogs open from here on.
  await page.waitForLoadState("networkidle");
  return reference;
}

test.describe("the order page", () => {
  test("found by reference and by student, opened from the list; a note; Mark Invoiced through its confirmation", async ({
    page,
    request,
  }) => {
    const tag = tagOf("op");
    const order = booking(tag);
    await bookByInvoice(request, order);
    await signInAsAdmin(page);

    // Search by a student's name and e-mail, then by the reference in any spelling.
    await findOne(page, order.students[1]!.firstName);
    const row = await findOne(page, order.students[0]!.email.toUpperCase());
    const reference = (await row.getByRole("link", { name: /^NW-/ }).innerText()).trim();
    await findOne(page, reference);
    await findOne(page, reference.replace(/^NW-/, "").toLowerCase());

    await openOrderFromList(page, reference);
    await expect(page).toHaveURL(/\/admin\/payments\/[0-9a-f-]{36}$/);
    const main = page.getByRole("main");
    await expect(main.getByText(order.email).first()).toBeVisible();
    await expect(main.getByText(order.phone)).toBeVisible();
    await expect(main.getByText(order.company).first()).toBeVisible();
    for (const s of order.students) await expect(main.getByText(s.email).first()).toBeVisible();
    await expect(main.getByText("£590.00").first()).toBeVisible();
    await expect(main.getByText("Manual Invoice")).toBeVisible();
    await expect(main.getByText("No invoice, receipt or credit note yet.")).toBeVisible();
    const timeline = page.getByRole("list", { name: "Timeline" });
    await expect(timeline.getByText("Order placed")).toBeVisible();
    await expect(timeline.getByText("by the buyer")).toBeVisible();
    await expect(timeline.getByText("E-mail queued").first()).toBeVisible();

    // A note: empty is refused in place, then one is kept with who wrote it.
    const note = page.getByLabel("Internal note");
    await page.getByRole("button", { name: "Add Note" }).click();
    await expect(page.getByText("Please write a note")).toBeVisible();
    await note.fill(`Buyer called ${tag}: PO to follow.`);
    await page.getByRole("button", { name: "Add Note" }).click();
    await expectToast(page, "Success", "Note added");
    await expect(note).toHaveValue("");
    const noteItem = timeline.locator('li[data-kind="note"]');
    await expect(noteItem).toContainText(`Buyer called ${tag}: PO to follow.`);
    await expect(noteItem).toContainText(`by ${E2E_ADMIN.email}`);

    // Until the invoice is issued, its billing details can be corrected: a bad postcode is
    // refused in place, then the PO number arrives and is saved, on the timeline.
    await page.getByText("Edit billing details").click();
    const billing = page.getByRole("form", { name: "Billing details" });
    await billing.getByLabel("Postcode").fill("nowhere");
    await billing.getByRole("button", { name: "Save billing details" }).click();
    await expect(billing.getByText("Please enter a valid UK postcode")).toBeVisible();
    await billing.getByLabel("Postcode").fill("sw1a 1aa");
    await billing.getByLabel("PO number").fill(`PO-${tag}`);
    await billing.getByRole("button", { name: "Save billing details" }).click();
    await expectToast(page, "Success", "Billing details updated");
    await expect(main.getByText(`PO-${tag}`).first()).toBeVisible();
    await expect(main.getByText("SW1A 1AA").first()).toBeVisible();
    await expect(timeline.getByText("Billing details corrected")).toBeVisible();

    // Mark Paid is not offered yet; Mark Invoiced asks first, and "Not Yet" changes nothing.
    await expect(main.getByRole("button", { name: /^Mark Paid/ })).toHaveCount(0);
    await main.getByRole("button", { name: /^Mark Invoiced/ }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText(`Mark ${reference} as invoiced?`)).toBeVisible();
    await expect(dialog).toContainText("invoice PDF");
    await expect(dialog).toContainText(`e-mailed to the buyer at ${order.email}`);
    await dialog.getByRole("button", { name: "Not Yet" }).click();
    await expect(dialog).toBeHidden();
    await expect(main.getByText("Pending").first()).toBeVisible();

    await main.getByRole("button", { name: /^Mark Invoiced/ }).click();
    await dialog.getByRole("button", { name: "Issue and Send Invoice" }).click();
    await expectToast(page, "Status Updated", "Order status changed to invoiced");
    await expect(timeline.getByText("Marked Invoiced")).toBeVisible();
    // Issued: the invoice is never edited. A correction credits it and issues a corrected one,
    // once confirmed.
    await expect(page.getByText("Edit billing details")).toHaveCount(0);
    await page.getByText("Correct and re-issue invoice").click();
    await billing.getByLabel("PO number").fill(`PO-${tag}-B`);
    await billing.getByRole("button", { name: "Correct and re-issue" }).click();
    await expect(
      billing.getByText("Please confirm that the invoice is to be credited"),
    ).toBeVisible();
    await billing.getByRole("checkbox", { name: /^Credit invoice INV-/ }).check();
    await billing.getByRole("button", { name: "Correct and re-issue" }).click();
    await expectToast(
      page,
      "Success",
      /^Invoice INV-\S+ issued in place of INV-\S+ \(credited by CN-/,
    );
    await expect(main.getByText(`PO-${tag}-B`).first()).toBeVisible();
    await expect(timeline.getByText(/issued in place of INV-/)).toBeVisible();
    await expect(timeline.locator('li[data-kind="invoiced"]')).toContainText(
      `by ${E2E_ADMIN.email}`,
    );

    // Mark Paid asks too, by keyboard, naming the order and everyone who gets an e-mail.
    const markPaid = main.getByRole("button", { name: /^Mark Paid/ });
    await markPaid.focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByText(`Mark ${reference} as paid?`)).toBeVisible();
    await expect(dialog).toContainText(`receipt will be e-mailed to the buyer at ${order.email}`);
    for (const s of order.students) await expect(dialog).toContainText(s.email);
    await closeWithEscape(page, dialog);
    await expect(markPaid).toBeFocused();
    await expect(timeline.locator('li[data-kind="paid"]')).toHaveCount(0);
  });

  test("Cancel asks first, for a reason, with 'Notify the buyer by e-mail' ticked", async ({
    page,
    request,
  }) => {
    const tag = tagOf("cx");
    const order = booking(tag, 0);
    await bookByInvoice(request, order);
    await signInAsAdmin(page);
    const row = await findOne(page, order.email);
    await page.waitForLoadState("networkidle");
    await row.getByRole("button", { name: /^Cancel/ }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText("Are you sure you want to cancel this order?")).toBeVisible();
    const notify = dialog.getByRole("checkbox", { name: "Notify the buyer by e-mail" });
    await expect(notify).toBeChecked();
    // The checkbox works from the keyboard; leave it ticked.
    await notify.focus();
    await page.keyboard.press("Space");
    await expect(notify).not.toBeChecked();
    await page.keyboard.press("Space");
    await expect(notify).toBeChecked();
    // No reason, no cancelling: the credit note prints it.
    const confirm = dialog.getByRole("button", { name: "Cancel Order" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Reason").fill("   ");
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Reason").fill("Booked twice by mistake");
    await confirm.click();
    await expectToast(page, "Status Updated", "Order status changed to canceled");
    await expect(row).toContainText("Canceled");
    await expect(row.getByRole("button")).toHaveCount(0);

    await openOrderFromList(page, order.email);
    const cancelled = page
      .getByRole("list", { name: "Timeline" })
      .locator('li[data-kind="canceled"]');
    await expect(cancelled).toContainText(`by ${E2E_ADMIN.email}`);
    await expect(cancelled).toContainText("Booked twice by mistake");
  });

  test("a change someone else made first: the toast says so and the page shows the real status", async ({
    page,
    request,
    context,
  }) => {
    const tag = tagOf("race");
    const order = booking(tag, 1);
    await bookByInvoice(request, order);
    await signInAsAdmin(page);
    const reference = await openOrderFromList(page, order.email);

    // Another admin (a second tab) marks it invoiced from the list.
    const other = await context.newPage();
    const otherRow = await findOne(other, reference);
    await other.waitForLoadState("networkidle");
    await otherRow.getByRole("button", { name: /^Mark Invoiced/ }).click();
    await other
      .getByRole("alertdialog")
      .getByRole("button", { name: "Issue and Send Invoice" })
      .click();
    await expectToast(other, "Status Updated", "Order status changed to invoiced");
    await other.close();

    // This page still offers Mark Invoiced: the server refuses it (409) and the page catches up.
    const main = page.getByRole("main");
    await main.getByRole("button", { name: /^Mark Invoiced/ }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: "Issue and Send Invoice" })
      .click();
    await expectToast(
      page,
      "Error",
      `Failed to update order status: order ${reference} was already marked Invoiced by someone else.`,
    );
    await expect(main.getByRole("button", { name: /^Mark Invoiced/ })).toHaveCount(0);
    await expect(main.getByRole("button", { name: /^Mark Paid/ })).toBeVisible();
    await expect(
      page.getByRole("list", { name: "Timeline" }).locator('li[data-kind="invoiced"]'),
    ).toHaveCount(1);
  });

  test("a paid on-demand order: a student's access details e-mailed from the template", async ({
    page,
    request,
  }) => {
    const tag = tagOf("ad");
    const order = booking(tag, 1);
    await bookByInvoice(request, order);
    await signInAsAdmin(page);
    await openOrderFromList(page, order.email);
    const main = page.getByRole("main");
    const dialog = page.getByRole("alertdialog");
    await main.getByRole("button", { name: /^Mark Invoiced/ }).click();
    await dialog.getByRole("button", { name: "Issue and Send Invoice" }).click();
    await expectToast(page, "Status Updated", "Order status changed to invoiced");
    await main.getByRole("button", { name: /^Mark Paid/ }).click();
    await dialog.getByRole("button", { name: /^Mark Paid/ }).click();
    await expectToast(page, "Status Updated", "Order status changed to paid");

    const student = `Stu1${tag} Student`;
    await expect(main.getByText("Access details not sent yet")).toBeVisible();
    await main.getByText("Send access details").click();
    const form = main.getByRole("form", { name: `Access details for ${student}` });
    const text = form.getByLabel(`E-mail to ${student}`);
    await expect(text).toHaveValue(new RegExp(`^Dear ${student},`));
    await text.fill(`Dear ${student},\n\nLink: https://learn.example.com/${tag}`);
    await form.getByRole("button", { name: "E-mail access details" }).click();
    await expectToast(page, "Success", "Access details e-mailed");
    await expect(main.getByTestId("access-details-status")).toContainText("Access details sent");
    await expect(main.getByTestId("access-details-status")).toContainText("(by e-mail)");
    await expect(
      page.getByRole("list", { name: "Timeline" }).getByText("Access details sent"),
    ).toBeVisible();
  });

  test("an unknown order is the admin's not-found view", async ({ page }) => {
    await signInAsAdmin(page);
    for (const id of ["00000000-0000-4000-8000-000000000000", "NW-00000000"]) {
      const response = await page.goto(`/admin/payments/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
      // Inside the admin shell.
      await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
    }
  });
});

test.describe("the Payments table's layout", () => {
  test("fits a 1366 px laptop (actions in view) and reads on a 375 px phone", async ({
    page,
    request,
  }) => {
    const tag = tagOf("fit");
    // A long address and company, the widest a row gets.
    await bookByInvoice(request, {
      ...booking(tag, 3),
      email: `a.very.long.mailbox.name.for.finance.${tag}@accounts-payable.example-bank.co.uk`,
      company: `The Very Long Named Counter Fraud Department ${tag} of Example Bank plc`,
    });
    await signInAsAdmin(page);

    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`/admin/payments`);
    const table = page.getByRole("table", { name: "Orders" });
    await expect(rowsOf(page).first()).toBeVisible();
    const overflow = await table.evaluate((el) => {
      const scroller = el.parentElement!;
      return {
        table: scroller.scrollWidth - scroller.clientWidth,
        page: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
    expect(overflow.table).toBeLessThanOrEqual(0);
    expect(overflow.page).toBeLessThanOrEqual(0);
    await expect(page.getByRole("columnheader", { name: "Actions" })).toBeInViewport();
    const row = rowsOf(page).filter({ hasText: tag });
    await row.scrollIntoViewIfNeeded();
    for (const name of [/^Mark Invoiced/, /^Cancel/]) {
      await expect(row.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    }

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`/admin/payments?q=${tag}`);
    await expect(rowsOf(page)).toHaveCount(1);
    const phoneOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(phoneOverflow).toBeLessThanOrEqual(0);
    const card = rowsOf(page).first();
    const link = card.getByRole("link", { name: /^NW-/ });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport({ ratio: 1 });
    const button = card.getByRole("button", { name: /^Mark Invoiced/ });
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  });
});
