import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as unsubscribeRoute from "#app/routes/site/newsletter-unsubscribe.tsx";
import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";
import { NEWSLETTER_CONSENT_TEXT } from "#app/lib/newsletter/consent.ts";
import { config } from "#server/config.server.ts";
import { emailOutbox, newsletterSubscriptions } from "#server/db/schema.ts";
import { fileMailer } from "#server/email/worker.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { subscribe } from "#server/newsletter/subscribe.server.ts";
import { releaseSubscription } from "#server/newsletter/admin.server.ts";
import { unsubscribeToken } from "#server/newsletter/unsubscribe.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";

/** The admin who releases a held sign-up (recorded in the audit log). */
const STAFF = { id: "admin-1", email: "staff@example.com" };

const database = useFreshDatabase();

const rows = () => database().db.select().from(newsletterSubscriptions);

describe("newsletter subscriptions", () => {
  it("stores the address trimmed and lower-cased, source footer", async () => {
    expect(await subscribe("  Jane.Doe@Example.COM ")).toMatchObject({
      status: "subscribed",
      email: "jane.doe@example.com",
    });
    expect(await rows()).toMatchObject([
      { email: "jane.doe@example.com", source: "footer", isActive: true },
    ]);
  });

  it("a second sign-up in any casing is 'already subscribed' (23505), one row kept", async () => {
    await subscribe("jane@example.com");
    expect(await subscribe("JANE@example.com")).toEqual({
      status: "already_subscribed",
      email: "jane@example.com",
    });
    // Even a row stored with capitals by something else is caught by the lower(email) index.
    await database().db.execute(
      sql`insert into newsletter_subscriptions (email, source) values ('Mixed@Case.com', 'admin')`,
    );
    expect((await subscribe("mixed@case.com")).status).toBe("already_subscribed");
    expect(await rows()).toHaveLength(2);
  });

  it("the action: success 200, duplicate 409, empty 400 with the spec's message", async () => {
    const post = (email: string) =>
      callAction(
        newsletterAction,
        formRequest(withGuards({ email, return_to: "/courses/x" }), { path: "/newsletter" }),
      );
    expect(await post("New@Example.com")).toMatchObject({
      status: 200,
      body: { ok: true, form: "newsletter", returnTo: "/courses/x" },
    });
    expect(await post("new@example.COM")).toMatchObject({
      status: 409,
      body: {
        ok: false,
        reason: "duplicate",
        message: "This email is already subscribed to our newsletter",
      },
    });
    expect(await post("   ")).toMatchObject({
      status: 400,
      body: {
        ok: false,
        reason: "invalid",
        fieldErrors: { email: "Please enter your email address" },
      },
    });
    expect(await post("not-an-email")).toMatchObject({
      status: 400,
      body: { fieldErrors: { email: "Please enter a valid email address" } },
    });
    expect(await rows()).toHaveLength(1);
  });

  it("an unsafe return path falls back to the home page", async () => {
    const res = await callAction(
      newsletterAction,
      formRequest(withGuards({ email: "a@example.com", return_to: "//evil.example" }), {
        path: "/newsletter",
      }),
    );
    expect(res.body.returnTo).toBe("/");
  });
});

const welcomes = () =>
  database().db.select().from(emailOutbox).where(eq(emailOutbox.kind, "newsletter_welcome"));

const signUp = (fields: Record<string, string>) =>
  callAction(newsletterAction, formRequest(withGuards(fields), { path: "/newsletter" }));

type RouteArgs = Parameters<typeof unsubscribeRoute.action>[0];

/** The unsubscribe page's loader or action, as React Router calls them. */
async function unsubscribePage(
  method: "GET" | "POST",
  token: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  const request = new Request(
    `http://localhost/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
    { method, body: method === "POST" ? (init.body ?? "") : undefined, headers: init.headers },
  );
  const args = { request, params: {}, context: {} } as unknown as RouteArgs;
  const result = (await (method === "GET"
    ? unsubscribeRoute.loader(args as never)
    : unsubscribeRoute.action(args))) as unknown as {
    data: Record<string, unknown>;
    init?: ResponseInit | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
}

describe("newsletter consent, welcome e-mail and one-click unsubscribe (decision 0021)", () => {
  it("stores when consent was given, on which form, and the words the form shows", async () => {
    const before = Date.now();
    expect((await signUp({ email: "footer@example.com" })).status).toBe(200);
    expect(
      (await signUp({ email: "page@example.com", consent_page: "newsletter_page" })).status,
    ).toBe(200);
    // A page name the site does not have counts as the footer.
    await signUp({ email: "odd@example.com", consent_page: "<script>" });
    const byEmail = Object.fromEntries((await rows()).map((r) => [r.email, r]));
    expect(byEmail["footer@example.com"]).toMatchObject({
      consentPage: "footer",
      consentText: NEWSLETTER_CONSENT_TEXT,
    });
    expect(byEmail["page@example.com"]).toMatchObject({
      consentPage: "newsletter_page",
      consentText: NEWSLETTER_CONSENT_TEXT,
    });
    expect(byEmail["odd@example.com"]!.consentPage).toBe("footer");
    expect(byEmail["footer@example.com"]!.consentAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
  });

  it("one welcome e-mail with both List-Unsubscribe headers and a link that works", async () => {
    await signUp({ email: "Welcome@Example.com" });
    const [row] = await rows();
    const mails = await welcomes();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const link = `${config.publicUrl}/newsletter/unsubscribe?token=${unsubscribeToken(row!.id)}`;
    expect(mail).toMatchObject({ toAddress: "welcome@example.com", status: "pending" });
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail!.text).toContain(link);
    expect(mail!.html).toContain(link.replace(/&/g, "&amp;"));

    // The message as sent carries both headers (the .eml copy is the message, byte for byte).
    const dir = mkdtempSync(path.join(os.tmpdir(), "nw-eml-"));
    try {
      await fileMailer(dir).send(mail!);
      const [file] = readdirSync(dir);
      // Long header lines are folded (RFC 5322): unfolded, they are the stored values.
      const eml = readFileSync(path.join(dir, file!), "utf8").replace(/\r?\n(?=[ \t])/g, "");
      expect(eml.split("\n")).toContain(`List-Unsubscribe: <${link}>`);
      expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // A second sign-up with the address sends nothing more.
    await signUp({ email: "welcome@example.com" });
    expect(await welcomes()).toHaveLength(1);
  });

  it("the link's page changes nothing; its POST unsubscribes, idempotently", async () => {
    await signUp({ email: "leaver@example.com" });
    const [row] = await rows();
    const token = unsubscribeToken(row!.id);

    // GET (a link scanner, or the visitor before pressing the button): nothing changes.
    expect(await unsubscribePage("GET", token)).toMatchObject({
      status: 200,
      body: { check: "valid" },
    });
    expect((await rows())[0]).toMatchObject({ isActive: true, unsubscribedAt: null });

    // A mail client's one-click POST (RFC 8058): no cookie, a foreign Origin.
    const first = await unsubscribePage("POST", token, {
      body: "List-Unsubscribe=One-Click",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example",
      },
    });
    expect(first).toMatchObject({ status: 200, body: { result: "unsubscribed" } });
    const [after] = await rows();
    expect(after).toMatchObject({ isActive: false });
    expect(after!.unsubscribedAt).toBeInstanceOf(Date);

    // The visitor presses the button too: the same state, said kindly, the time kept.
    expect(await unsubscribePage("POST", token)).toMatchObject({
      status: 200,
      body: { result: "already_unsubscribed" },
    });
    expect((await rows())[0]!.unsubscribedAt).toEqual(after!.unsubscribedAt);
  });

  it("a bad token is refused and nothing changes", async () => {
    await signUp({ email: "stay@example.com" });
    const [row] = await rows();
    const good = unsubscribeToken(row!.id);
    const [, mac] = good.split(".");
    const forged = [
      "",
      "nonsense",
      `${row!.id}`,
      `${row!.id}.`,
      `${row!.id}.${mac!.slice(0, -2)}AA`,
      `${crypto.randomUUID()}.${mac}`,
      `${row!.id}.${mac}x`,
    ];
    for (const token of forged) {
      expect(await unsubscribePage("GET", token)).toMatchObject({
        status: 400,
        body: { check: "invalid" },
      });
      expect(await unsubscribePage("POST", token)).toMatchObject({
        status: 400,
        body: { result: "invalid" },
      });
    }
    expect((await rows())[0]).toMatchObject({ isActive: true, unsubscribedAt: null });
  });

  it("someone who left and signs up again is subscribed again, with a new welcome", async () => {
    await signUp({ email: "back@example.com" });
    const [row] = await rows();
    await unsubscribePage("POST", unsubscribeToken(row!.id));
    expect(
      await signUp({ email: "back@example.com", consent_page: "newsletter_page" }),
    ).toMatchObject({ status: 200, body: { ok: true } });
    expect((await rows())[0]).toMatchObject({
      id: row!.id,
      isActive: true,
      unsubscribedAt: null,
      consentPage: "newsletter_page",
    });
    expect(await welcomes()).toHaveLength(2);
  });

  it("held suspected spam gets no welcome until released, then exactly one", async () => {
    const bot = { [HONEYPOT_FIELD]: "http://cheap-pills.example" };
    expect((await signUp({ email: "held@example.com", ...bot })).status).toBe(200);
    const [held] = await rows();
    expect(held).toMatchObject({ spamReason: "honeypot" });
    expect(await welcomes()).toHaveLength(0);

    expect(await releaseSubscription(held!.id, STAFF)).toMatchObject({ spamReason: null });
    const mails = await welcomes();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.headers!["List-Unsubscribe"]).toContain(unsubscribeToken(held!.id));
    // Released once only: a second release finds nothing held and sends nothing.
    expect(await releaseSubscription(held!.id, STAFF)).toBeNull();
    expect(await welcomes()).toHaveLength(1);
  });
});
