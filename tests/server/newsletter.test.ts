import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { newsletterSubscriptions } from "#server/db/schema.ts";
import { subscribe } from "#server/newsletter.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";

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
