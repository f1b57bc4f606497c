import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import {
  bookByInvoice,
  expectToast,
  postEnquiry,
  signInAsAdmin,
} from "#tests/support/e2e-fixtures.ts";

/**
 * The admin screens (decision 0024) in Chromium: the Dashboard's rows open what they show (an
 * inquiry, an order) and it shows the latest orders and this month's revenue; the catalogue and
 * staff lists are cards on a 375 px phone and no admin table is wider than its box on a 1366 px
 * laptop with the sidebar open; delete confirmations name what they delete; a thumbnail is
 * previewed before it is saved and shown when the course is edited again; the form dialogs keep
 * their Save button in view. Everything created here is deleted again, or is an inquiry or an
 * order, which the other specs do not count.
 */

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

let run = 0;
const tagOf = (label: string) => `${label}${Date.now().toString(36)}${++run}`;

/** An invoice booking through the public checkout for one place, the buyer's own. */
const bookAs = (request: APIRequestContext, firstName: string) =>
  bookByInvoice(request, { firstName, email: `${firstName.toLowerCase()}@example.com` });

/** '£1,234.56' → 123456 */
const pence = (text: string) => Math.round(Number(text.replace(/[£,\s]/g, "")) * 100);

async function revenueFigure(page: Page): Promise<{ cents: number; hint: string }> {
  const card = page
    .getByRole("region", { name: "Revenue" })
    .getByRole("heading", { name: "Revenue this month" })
    .locator("xpath=../..");
  const [figure, hint] = await card.locator("p").allInnerTexts();
  return { cents: pence(figure!), hint: hint ?? "" };
}

test.describe("dashboard", () => {
  test("an inquiry row opens that inquiry, by click or keyboard; one tab stop per row", async ({
    page,
  }) => {
    const name = tagOf("Rowlink");
    await postEnquiry(page.request, name, `Message from ${name}.`);
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");

    const latest = page.getByRole("list", { name: "Latest inquiries" }).getByRole("listitem");
    const row = latest.filter({ hasText: name });
    await expect(row).toHaveCount(1);
    // One focusable thing per row: its link.
    const stops = await page
      .getByRole("list", { name: "Latest inquiries" })
      .evaluate((list) =>
        [...list.querySelectorAll("li")].map(
          (li) => li.querySelectorAll("a, button, input, select, textarea, [tabindex]").length,
        ),
      );
    expect(stops.every((n) => n === 1)).toBe(true);

    // A click anywhere on the row (here: its bottom left, on the e-mail address, not the name)
    // opens it.
    const box = (await row.boundingBox())!;
    await row.click({ position: { x: 12, y: box.height - 8 } });
    await expect(page).toHaveURL(/\/admin\/inquiries\?inquiry=[0-9a-f-]{36}$/);
    const details = page.getByRole("dialog", { name: "Inquiry Details" });
    await expect(details).toContainText(name);
    await expect(details).toContainText(`Message from ${name}.`);
    // Closing it takes the inquiry out of the URL: a reload does not open it again.
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toBeHidden();
    await expect(page).toHaveURL(/\/admin\/inquiries$/);

    // By keyboard: the row's link, then Enter.
    await page.goto("/admin/dashboard");
    const link = row.getByRole("link", { name: `${name}’s inquiry` });
    await link.focus();
    await expect(link).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Inquiry Details" })).toContainText(name);

    // A link to an inquiry that is not there opens nothing, and says so.
    await page.goto("/admin/inquiries?inquiry=00000000-0000-4000-8000-000000000000");
    await expect(page.getByText("That inquiry was not found")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("shows an order placed now among the latest orders, and this month's revenue", async ({
    page,
  }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");
    const before = await revenueFigure(page);
    const month = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      month: "long",
      year: "numeric",
    }).format(new Date());
    expect(before.hint).toContain(`paid in ${month} (UK time)`);
    expect(before.hint).toContain("VAT included, less refunds");
    expect(before.hint).toMatch(/£[\d,]+\.\d\d without VAT/);

    const buyer = tagOf("Dash");
    await bookAs(page.request, buyer);
    await page.goto("/admin/dashboard");
    const orders = page.getByRole("list", { name: "Latest orders" }).getByRole("listitem");
    const row = orders.first();
    await expect(row).toContainText(`${buyer} Buyer`);
    await expect(row).toContainText(BILLING_FORM.company!);
    await expect(row).toContainText("Introduction to Counter Fraud");
    await expect(row).toContainText("£295.00");
    await expect(row).toContainText("Pending");
    const orderId = (await row.getAttribute("data-order-id"))!;
    // Placed, not paid: no revenue yet.
    expect((await revenueFigure(page)).cents).toBe(before.cents);

    // Invoiced, then paid: this month's revenue grows by its total.
    for (const status of ["invoiced", "paid"]) {
      const response = await page.request.post("/admin/payments", {
        form: { intent: "status", orderId, status },
      });
      expect(response.status(), status).toBeLessThan(400);
    }
    await page.goto("/admin/dashboard");
    await expect(row).toContainText("Paid");
    expect((await revenueFigure(page)).cents).toBe(before.cents + 29_500);

    // The row opens the order.
    await row.getByRole("link", { name: /^Order NW-[0-9A-F]{8}$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/payments/${orderId}$`));
    await expect(page.getByRole("heading", { level: 1, name: /^Order NW-/ })).toBeVisible();
  });
});

/** Every admin screen with a list (Data Requests is added with an address that has data). */
const LIST_SCREENS = [
  "/admin/dashboard",
  "/admin/courses",
  "/admin/categories",
  "/admin/partners",
  "/admin/inquiries",
  "/admin/payments",
  "/admin/newsletter-subscriptions",
  "/admin/staff",
  "/admin/audit",
] as const;

test.describe("lists that fit", () => {
  test("on a 375 px phone: no sideways scrolling; courses, partners, categories and staff are cards", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
    const page = await context.newPage();
    await signInAsAdmin(page);
    // Something long to wrap: an inquiry and an order with a long name and e-mail address.
    const long = tagOf("Alexandra-Montgomery-Smythe-of-a-very-long-organisation-name");
    await postEnquiry(page.request, long, "A long name.");
    await bookAs(page.request, long);

    for (const path of [
      ...LIST_SCREENS,
      "/admin/privacy?email=" + `${long.toLowerCase()}%40example.com`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const [scrollWidth, innerWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth);
    }

    const cards: [path: string, name: string][] = [
      ["/admin/courses", "Dark Web Investigations for Fraud Teams"],
      ["/admin/partners", "Cifas"],
      ["/admin/categories", "Fraud Prevention"],
    ];
    for (const [path, name] of cards) {
      await page.goto(path);
      // The table is for wider screens; here each item is a card with its name and actions.
      await expect(page.getByRole("table")).toBeHidden();
      const card = page.getByRole("listitem").filter({
        has: page.getByRole("heading", { level: 3, name, exact: true }),
      });
      await expect(card, path).toBeVisible();
      await expect(card.getByRole("button", { name: `Edit ${name}` })).toBeVisible();
      await expect(card.getByRole("button", { name: `Delete ${name}` })).toBeVisible();
      const box = (await card.boundingBox())!;
      expect(box.x + box.width, path).toBeLessThanOrEqual(375);
    }
    await page.goto("/admin/courses");
    await expect(
      page.getByRole("listitem").filter({ hasText: "Dark Web Investigations for Fraud Teams" }),
    ).toContainText("Published");

    await page.goto("/admin/staff");
    await expect(page.getByRole("table")).toBeHidden();
    await expect(
      page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { level: 3 }) })
        .first(),
    ).toBeVisible();
    await context.close();
  });

  test("on a 1366 px laptop with the sidebar open: no table is wider than its box", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
    const long = tagOf("Bartholomew-Featherstonehaugh-of-a-very-long-organisation-name");
    await postEnquiry(page.request, long, "A long name.");
    await bookAs(page.request, long);

    const screens = [
      ...LIST_SCREENS.filter((path) => path !== "/admin/dashboard"),
      "/admin/privacy?email=" + `${long.toLowerCase()}%40example.com`,
    ];
    for (const path of screens) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
      const tables = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("[data-table-wrapper]")]
          .filter((wrapper) => wrapper.offsetParent !== null)
          .map((wrapper) => [wrapper.scrollWidth, wrapper.clientWidth] as const),
      );
      // Each list has rows by now (the newsletter's may be empty: no table to check there).
      if (path !== "/admin/newsletter-subscriptions")
        expect(tables.length, path).toBeGreaterThan(0);
      for (const [scrollWidth, clientWidth] of tables) {
        expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
      }
      const [pageWidth, innerWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect(pageWidth, path).toBeLessThanOrEqual(innerWidth);
    }
    await context.close();
  });
});

test.describe("delete confirmations", () => {
  for (const [path, name, question, kind] of [
    [
      "/admin/courses",
      "Dark Web Investigations for Fraud Teams",
      "Are you sure you want to delete this course?",
      "course",
    ],
    ["/admin/partners", "Cifas", "Are you sure you want to delete this partner?", "partner"],
    [
      "/admin/categories",
      "Cyber Security",
      "Are you sure you want to delete this category? This may affect associated courses.",
      "category",
    ],
  ] as const) {
    test(`name the ${kind}; Cancel changes nothing`, async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto(path);
      const heading = page.getByRole("heading", { level: 2, name: /\(\d+\)$/ });
      const count = await heading.innerText();
      await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
      const dialog = page.getByRole("alertdialog");
      // The spec's question word for word, and the item named under it.
      await expect(dialog.getByRole("heading")).toHaveText(question);
      await expect(dialog).toContainText(
        `The ${kind} ‘${name}’ will be deleted. This cannot be undone.`,
      );
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
      await page.reload();
      await expect(heading).toHaveText(count);
      await expect(page.getByRole("button", { name: `Edit ${name}`, exact: true })).toBeVisible();
    });
  }
});

test.describe("course dialog", () => {
  test("a thumbnail is previewed before saving and shown when the course is edited again", async ({
    page,
  }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/courses");
    const title = tagOf("E2E Thumbnail Course ");
    await page.getByRole("button", { name: "Add Course" }).click();
    let dialog = page.getByRole("dialog", { name: "Add Course" });
    await dialog.getByLabel("Title").fill(title);

    // The picker is the real file input, reached by keyboard and named by its labels.
    const input = dialog.locator('input[name="thumbnail"]');
    await expect(input).toHaveAccessibleName(/Thumbnail/);
    await input.focus();
    await expect(input).toBeFocused();
    await expect(dialog.getByText("Choose thumbnail…")).toBeVisible();

    await input.setInputFiles({ name: "course-card.png", mimeType: "image/png", buffer: PNG });
    const preview = dialog.getByAltText("Thumbnail preview");
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute("src", /^data:image\/png;base64,/);
    await expect(dialog.getByText("course-card.png")).toBeVisible();
    await expect(dialog.getByText(`${PNG.length} bytes`)).toBeVisible();
    await expect(dialog.getByText("Choose another thumbnail…")).toBeVisible();
    // Cleared, the choice goes; chosen again, it comes back.
    await dialog.getByRole("button", { name: "Clear the chosen thumbnail" }).click();
    await expect(preview).toHaveCount(0);
    await expect(input).toHaveValue("");
    await input.setInputFiles({ name: "course-card.png", mimeType: "image/png", buffer: PNG });
    await expect(preview).toBeVisible();

    await dialog.getByRole("button", { name: "Create Course" }).click();
    await expectToast(page, "Success", "Course created successfully");
    await expect(dialog).toBeHidden();

    await page.getByRole("button", { name: `Edit ${title}` }).click();
    dialog = page.getByRole("dialog", { name: "Edit Course" });
    const current = dialog.getByAltText("Current thumbnail");
    await expect(current).toBeVisible();
    await expect(current).toHaveAttribute(
      "src",
      /^\/media\/thumbnails\/course-\d+-[0-9a-f]+\.png$/,
    );
    await expect(dialog.getByText("Current thumbnail", { exact: true })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Remove thumbnail" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    // Clean up.
    await page.getByRole("button", { name: `Delete ${title}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Success", "Course deleted successfully");
  });

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 375, height: 667 },
  ]) {
    test(`Add Course keeps Save in view at ${viewport.width}×${viewport.height}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await signInAsAdmin(page);
      await page.goto("/admin/courses");
      await page.getByRole("button", { name: "Add Course" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Course" });
      await expect(dialog).toBeVisible();
      const save = dialog.getByRole("button", { name: "Create Course" });
      const cancel = dialog.getByRole("button", { name: "Cancel" });
      // On open, without scrolling anything.
      for (const button of [save, cancel, dialog.getByRole("heading", { name: "Add Course" })]) {
        await expect(button).toBeInViewport({ ratio: 1 });
      }
      const box = (await dialog.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      // The fields scroll inside; the buttons stay where they are.
      const saveTop = (await save.boundingBox())!.y;
      await dialog.getByLabel("External link").scrollIntoViewIfNeeded();
      await expect(dialog.getByLabel("External link")).toBeInViewport();
      await expect(save).toBeInViewport({ ratio: 1 });
      expect((await save.boundingBox())!.y).toBe(saveTop);
      await cancel.click();
      await expect(dialog).toBeHidden();
      await context.close();
    });
  }
});
