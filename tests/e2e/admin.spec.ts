import { readFileSync } from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { closeWithEscape } from "#tests/support/dialogs.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import { E2E_ADMIN, expectToast, signInAsAdmin, signInForm } from "#tests/support/e2e-fixtures.ts";

/**
 * Admin area I in a real browser: sign-in and guards, the shell, the dashboard, inquiries and
 * the newsletter screen, with their exact texts.
 */

function unique(label: string) {
  return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** A visitor's enquiry through the public contact form. */
async function submitEnquiry(page: Page, name: string, email: string) {
  await page.goto("/contact");
  const form = page.locator("form#contact-form");
  await form.getByLabel("Full Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Company").fill("Acme Bank");
  await form.getByLabel("Message").fill("Please call us about dark web monitoring.");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
}

async function counter(page: Page, label: string): Promise<number> {
  const card = page.getByRole("heading", { name: label, exact: true }).locator("xpath=../..");
  const text = await card.locator("p").first().innerText();
  return Number(text.replace(/,/g, ""));
}

test.describe("sign-in and guards", () => {
  test("anonymous visitors are sent to /auth from every admin page", async ({ page }) => {
    for (const path of [
      "/admin",
      "/admin/dashboard",
      "/admin/inquiries",
      "/admin/payments",
      "/admin/newsletter",
      "/admin/newsletter-subscriptions",
      "/admin/no-such-page",
    ]) {
      await page.goto(path);
      // The dashboard is where sign-in leads anyway; any other page is named, to return to.
      await expect(page, path).toHaveURL(
        path === "/admin" || path === "/admin/dashboard"
          ? /\/auth$/
          : new RegExp(`/auth\\?redirectTo=${encodeURIComponent(path)}$`),
      );
    }
    await expect(page.getByRole("heading", { name: "Admin Access" })).toBeVisible();
    // Anonymous admin actions and downloads answer without data.
    const post = await page.request.post("/admin/inquiries", { form: { intent: "update" } });
    expect(post.status()).toBe(401);
    const csv = await page.request.get("/admin/inquiries/export", { maxRedirects: 0 });
    expect(csv.status()).toBe(302);
    expect(csv.headers()["location"]).toBe("/auth?redirectTo=%2Fadmin%2Finquiries%2Fexport");
  });

  test("a wrong then the right password; /auth then leads to the dashboard; sign out", async ({
    page,
  }) => {
    await page.goto("/auth");
    const form = signInForm(page);
    await form.email.fill(E2E_ADMIN.email);
    await form.password.fill("not-the-password");
    await form.submit.click();
    const alert = page.getByRole("alert").filter({ hasText: "Invalid email or password" });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);

    await form.password.fill(E2E_ADMIN.password);
    await form.submit.click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await expect(page.getByText(`Welcome back, ${E2E_ADMIN.email}`)).toBeVisible();
    await expect(page.getByText(`Signed in as ${E2E_ADMIN.email}`)).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) =>
      c.name.endsWith("better-auth.session_token"),
    );
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await page.goto("/auth");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("heading", { name: "Admin Access" })).toBeVisible();
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
    // The old cookie is worthless: the session ended on the server.
    const again = await page.request.get("/admin/dashboard", {
      headers: { Cookie: `${cookie!.name}=${cookie!.value}` },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(302);
  });

  test("sign-in and sign-out work without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/auth");
    const form = signInForm(page);
    await form.email.fill(E2E_ADMIN.email);
    await form.password.fill("still-not-the-password");
    await form.submit.click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Invalid email or password" }),
    ).toBeVisible();
    await form.email.fill(E2E_ADMIN.email);
    await form.password.fill(E2E_ADMIN.password);
    await form.submit.click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await context.close();
  });

  for (const javaScriptEnabled of [true, false]) {
    test(`sign-in returns to the admin page asked for${javaScriptEnabled ? "" : " (without JavaScript)"}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      await page.goto("/admin/payments?status=paid");
      await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fpayments%3Fstatus%3Dpaid$/);
      // A wrong password first: the page asked for is still remembered.
      const form = signInForm(page);
      await form.email.fill(E2E_ADMIN.email);
      await form.password.fill("not-the-password-either");
      await form.submit.click();
      await expect(
        page.getByRole("alert").filter({ hasText: "Invalid email or password" }),
      ).toBeVisible();
      await form.email.fill(E2E_ADMIN.email);
      await form.password.fill(E2E_ADMIN.password);
      await form.submit.click();
      await expect(page).toHaveURL(/\/admin\/payments\?status=paid$/);
      await expect(page.getByRole("heading", { name: "Manage Payments" })).toBeVisible();
      // Signed in, /auth sends on to the page named, never off the admin area.
      await page.goto("/auth?redirectTo=%2Fadmin%2Fcourses");
      await expect(page).toHaveURL(/\/admin\/courses$/);
      await page.goto("/auth?redirectTo=%2F%2Fevil.example%2Fadmin");
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await page.getByRole("button", { name: "Sign Out" }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await context.close();
    });
  }
});

test.describe("shell", () => {
  test("sidebar with the spec's links, collapsible, and 'Back to Website'", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(page.getByText("Admin Panel").first()).toBeVisible();
    await expect(nav.getByText("Management")).toBeVisible();
    for (const [label, href] of [
      ["Dashboard", "/admin/dashboard"],
      ["Courses", "/admin/courses"],
      ["Categories", "/admin/categories"],
      ["Inquiries", "/admin/inquiries"],
      ["Payments", "/admin/payments"],
      ["Newsletter", "/admin/newsletter-subscriptions"],
      ["Partners", "/admin/partners"],
    ] as const) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute(
        "href",
        href,
      );
    }
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // No site header or footer here.
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);

    const toggle = page.getByRole("button", { name: "Toggle sidebar" });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.click();
    await expect(nav).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(nav).toBeVisible();

    await page.getByRole("link", { name: "Back to Website" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("usable on a phone (375 px): drawer navigation, nothing wider than the screen", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await signInAsAdmin(page);
    for (const path of [
      "/admin/dashboard",
      "/admin/inquiries",
      "/admin/newsletter-subscriptions",
    ]) {
      await page.goto(path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(375);
    }
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeHidden();
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    const drawer = page.getByRole("dialog", { name: "Admin navigation" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByText(`Signed in as ${E2E_ADMIN.email}`)).toBeVisible();
    await drawer.getByRole("link", { name: "Inquiries" }).click();
    await expect(page).toHaveURL(/\/admin\/inquiries$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { name: "Inquiries", level: 1 })).toBeVisible();
    await context.close();
  });
});

test.describe("dashboard", () => {
  test("counters and the latest inquiries follow a new enquiry", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");
    const before = { new: await counter(page, "New"), total: await counter(page, "Total") };
    for (const label of ["In Progress", "Resolved", "Closed"]) {
      await expect(page.getByRole("heading", { name: label, exact: true })).toBeVisible();
    }

    const name = unique("Dashboard Visitor");
    await submitEnquiry(page, name, `${name.replace(/\W+/g, ".").toLowerCase()}@example.com`);

    await page.goto("/admin/dashboard");
    expect(await counter(page, "New")).toBe(before.new + 1);
    expect(await counter(page, "Total")).toBe(before.total + 1);
    const latest = page.getByRole("list", { name: "Latest inquiries" }).getByRole("listitem");
    await expect(latest.first()).toContainText(name);
    await expect(latest.first()).toContainText("Just now");
    await expect(latest.first()).toContainText("New");
    expect(await latest.count()).toBeLessThanOrEqual(10);
    for (const href of [
      "/admin/courses",
      "/admin/inquiries",
      "/admin/payments",
      "/admin/partners",
    ]) {
      await expect(page.getByRole("main").locator(`a[href="${href}"]`).first()).toBeVisible();
    }
  });
});

test.describe("inquiries", () => {
  test("filter, view details, update status and notes, export CSV", async ({ page }) => {
    const name = unique("Inquiry Visitor");
    const email = `${name.replace(/\W+/g, ".").toLowerCase()}@example.com`;
    await submitEnquiry(page, name, email);
    await signInAsAdmin(page);
    await page.goto("/admin/inquiries");
    await expect(page.getByRole("heading", { name: "Inquiries", level: 1 })).toBeVisible();
    for (const label of ["New Inquiries", "In Progress", "Total Inquiries"]) {
      await expect(page.getByRole("heading", { name: label, exact: true })).toBeVisible();
    }

    // Filters live in the URL, so the view can be linked and reloaded.
    await page.locator("#filter-status").selectOption("new");
    await expect(page).toHaveURL(/\/admin\/inquiries\?status=new$/);
    await page.locator("#filter-type").selectOption("general");
    await expect(page).toHaveURL(/type=general/);
    await page.locator("#filter-q").fill(name);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=Inquiry/);
    await page.reload();
    await expect(page.locator("#filter-q")).toHaveValue(name);
    const row: Locator = page.getByRole("row").filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("New", { exact: true })).toBeVisible();

    await row.getByRole("button", { name: /View details/ }).click();
    const details = page.getByRole("dialog", { name: "Inquiry Details" });
    await expect(details).toContainText(email);
    await expect(details).toContainText("Acme Bank");
    await expect(details).toContainText("Please call us about dark web monitoring.");
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toBeHidden();

    await row.getByRole("button", { name: /^Update / }).click();
    const update = page.getByRole("dialog", { name: "Update Inquiry" });
    await update.getByLabel("Status").selectOption("replied");
    await update.getByLabel("Notes").fill("Called back on Monday.");
    await update.getByRole("button", { name: "Update Inquiry" }).click();
    await expectToast(page, "Success", "Inquiry updated successfully");
    await expect(update).toBeHidden();
    // Still filtered on 'new': the replied inquiry leaves the list.
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
    await page.locator("#filter-status").selectOption("replied");
    const replied = page.getByRole("row").filter({ hasText: name });
    await expect(replied.getByText("Replied", { exact: true })).toBeVisible();
    await replied.getByRole("button", { name: /View details/ }).click();
    await expect(details).toContainText("Called back on Monday.");
    await closeWithEscape(page, details);

    // The CSV holds what the list shows.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`inquiries-${londonDate()}.csv`);
    const csv = readFileSync((await file.path())!, "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Date,Name,Email,Phone,Company,Type,Status,Course,Modality,Attendees,Budget,Message,Notes,Suspected spam,ID",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(name);
    expect(lines[1]).toContain("Replied");
    expect(lines[1]).toContain("Called back on Monday.");
  });
});

test.describe("newsletter", () => {
  test("/admin/newsletter, stats, deactivate/activate, export active e-mails", async ({ page }) => {
    const email = `${unique("reader").replace(/\W+/g, ".")}@example.com`;
    await page.goto("/");
    const footerForm = page.getByRole("form", { name: "Newsletter sign-up" });
    await footerForm.getByLabel("Email address").fill(email);
    await footerForm.getByRole("button", { name: "Subscribe" }).click();
    await expectToast(
      page,
      "Successfully Subscribed!",
      "Thank you for subscribing to our newsletter",
    );

    await signInAsAdmin(page);
    await page.goto("/admin/newsletter");
    await expect(page).toHaveURL(/\/admin\/newsletter-subscriptions$/);
    await expect(page.getByRole("heading", { name: "Newsletter Subscriptions" })).toBeVisible();
    expect(await counter(page, "New Today")).toBeGreaterThanOrEqual(1);
    const active = await counter(page, "Active");
    expect(await counter(page, "Total")).toBeGreaterThanOrEqual(active);

    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row.getByText("Active", { exact: true })).toBeVisible();
    await expect(row.getByText("footer", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: `Deactivate ${email}` }).click();
    await expectToast(page, "Success", "Subscription deactivated");
    await expect(row.getByText("Inactive", { exact: true })).toBeVisible();
    expect(await counter(page, "Active")).toBe(active - 1);

    const exportActive = async () => {
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export Active Emails" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`newsletter-subscribers-${londonDate()}.txt`);
      const text = readFileSync((await file.path())!, "utf8");
      const lines = text.split("\n").filter(Boolean);
      await expectToast(page, "Success", `Exported ${lines.length} active email addresses`);
      return lines;
    };
    const withoutIt = await exportActive();
    expect(withoutIt).not.toContain(email);
    expect(withoutIt.every((line) => /^[^\s@]+@[^\s@]+$/.test(line))).toBe(true);
    expect(withoutIt).toHaveLength(active - 1);

    await row.getByRole("button", { name: `Activate ${email}` }).click();
    await expectToast(page, "Success", "Subscription activated");
    await expect(row.getByText("Active", { exact: true })).toBeVisible();
    const withIt = await exportActive();
    expect(withIt).toContain(email);
    expect(withIt).toHaveLength(active);
  });
});

test.describe("a list that cannot be loaded", () => {
  test("the screen's toast inside the shell, with a way to try again", async ({ page }) => {
    // Six screens, each broken and tried again.
    test.slow();
    await signInAsAdmin(page);
    for (const [label, heading, message] of [
      ["Inquiries", "Inquiries", "Failed to fetch inquiries"],
      ["Payments", "Payments", "Failed to load orders"],
      ["Newsletter", "Newsletter", "Failed to load newsletter subscriptions"],
      ["Courses", "Courses", "Failed to fetch courses"],
      ["Categories", "Categories", "Failed to fetch categories"],
      ["Partners", "Partners", "Failed to fetch partners"],
    ] as const) {
      await page.goto("/admin/dashboard");
      await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
      // The screen's loader gives nothing: the page's data request answers for the shell only
      // (as when the screen's loader throws), and the screen's part is missing.
      await page.route("**/admin/*.data*", async (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set("_routes", "root,routes/admin/layout");
        // This interception's own request may meet a keep-alive connection the site has just
        // closed (a reset before any answer): it is sent again, as a browser would.
        const fetched = await route
          .fetch({ url: url.toString() })
          .catch(() => route.fetch({ url: url.toString() }));
        await route.fulfill({ response: fetched });
      });
      await page
        .getByRole("navigation", { name: "Admin" })
        .getByRole("link", { name: label, exact: true })
        .click();
      await expectToast(page, "Error", message);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      await expect(page.getByText(`Signed in as ${E2E_ADMIN.email}`)).toBeVisible();
      await page.unroute("**/admin/*.data*");
      await page.getByRole("link", { name: "Try again" }).click();
      await expect(page.getByRole("table").or(page.getByText(/No .* (found|yet)\./))).toBeVisible();
    }
  });
});
