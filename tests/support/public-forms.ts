import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, type Route } from "@playwright/test";
import { outboxDir } from "#tests/support/e2e-sites.ts";
import { simpleParser } from "mailparser";

/**
 * The visitor forms in Chromium: addresses no other test uses, the e-mails a post leaves (the web
 * server runs without SMTP_URL, so each lands as an .eml file under DATA_DIR/outbox), a post
 * rewritten on its way to drive the server's failure paths, and the enquiry's fields.
 */

let counter = 0;
export function uniqueEmail(label: string): string {
  counter += 1;
  return `e2e-${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The .eml files (parsed) that mention `address`. */
export async function mailsFor(address: string) {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  const found = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outboxDir(), file), "utf8");
    if (!raw.includes(address)) continue;
    const parsed = await simpleParser(raw);
    found.push({ kind: String(parsed.headers.get("x-nightwatch-kind")), parsed, raw });
  }
  return found;
}

/** Waits for the admin alert and the visitor confirmation of one inquiry, and returns them. */
export async function expectTwoEmails(address: string) {
  await expect.poll(async () => (await mailsFor(address)).length, { timeout: 15_000 }).toBe(2);
  const mails = await mailsFor(address);
  const admin = mails.find((m) => m.kind === "admin_alert");
  const visitor = mails.find((m) => m.kind === "visitor_confirmation");
  expect(admin, "admin alert").toBeDefined();
  expect(visitor, "visitor confirmation").toBeDefined();
  return { admin: admin!, visitor: visitor! };
}

/**
 * Rewrites the next form post on its way to the server (after the browser's own checks passed),
 * to drive the server's failure paths from a real page.
 */
export async function tamperNextPost(
  page: Page,
  change: (body: URLSearchParams) => void,
  delayMs = 0,
) {
  let done = false;
  const handler = async (route: Route) => {
    const request = route.request();
    if (done || request.method() !== "POST") return route.fallback();
    done = true;
    const body = new URLSearchParams(request.postData() ?? "");
    change(body);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await route.continue({ postData: body.toString() });
  };
  await page.route("**/*", handler);
}

export async function fillEnquiry(page: Page, form: ReturnType<Page["locator"]>, email: string) {
  await form.getByLabel("Full Name").fill("Jane Tester");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Company").fill("Acme Bank");
  await form.getByLabel("Phone").fill("020 7946 0000");
  await form.getByLabel("Message").fill("We would like a call about our exposure.");
}
