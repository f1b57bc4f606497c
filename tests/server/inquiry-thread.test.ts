import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as inquiryModule from "#app/routes/admin/inquiry.tsx";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  emailOutbox,
  inquiries,
  inquiryNotes,
  inquiryReplies,
  inquiryReplyTemplates,
  user,
} from "#server/db/schema.ts";
import {
  inquiriesScreen,
  repliesDue,
  updateInquiryForAdmin,
} from "#server/inquiries/admin.server.ts";
import {
  deleteReplyTemplate,
  listReplyTemplates,
  saveReplyTemplate,
} from "#server/inquiries/reply-templates.server.ts";
import { addInquiryNote, assignInquiry, inquiryPage } from "#server/inquiries/thread.server.ts";
import { anonymiseExpiredInquiries } from "#server/privacy/retention.server.ts";
import { findPersonalData } from "#server/privacy/find.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * An enquiry's page (decision 0048), on both databases: a reply sent from it is queued once
 * (however often the same reply is posted) and kept with who sent it; notes are a list whose
 * latest is the enquiry's notes field; owner, follow-up date and the "Mine" filter; templates;
 * and the thread goes with the person's details when retention anonymises the enquiry.
 */
useFreshDatabase();
const post = useAdminPosts();
const inquiryRoute = throughAdminLayout(inquiryModule);

const HOUR = 60 * 60 * 1000;

async function arrived(extra: Partial<typeof inquiries.$inferInsert> = {}) {
  const [row] = await db()
    .insert(inquiries)
    .values({
      name: "Priya Shah",
      email: "priya@bank.example",
      message: "We would like training for 12 analysts.\nCan you quote?",
      inquiryType: "training",
      ...extra,
    })
    .returning();
  return row!;
}

async function staffMember(id: string, name: string) {
  await db()
    .insert(user)
    .values({ id, name, email: `${id}@nightwatch.example` });
  return { id, email: `${id}@nightwatch.example`, name };
}

function reply(id: string, key: string, subject = "Your training enquiry", body = "Dear Priya") {
  return post(
    inquiryRoute,
    `/admin/inquiries/${id}`,
    { inquiryId: id },
    {
      intent: "reply",
      submission_key: key,
      subject,
      body,
    },
  );
}

describe("replying from the enquiry's page", () => {
  it("queues the reply once, however often the same reply is posted, and keeps it", async () => {
    const inquiry = await arrived();
    const key = "a".repeat(32);
    const answers = await Promise.all([reply(inquiry.id, key), reply(inquiry.id, key)]);
    expect(answers.map((a) => [a.status, a.body.ok])).toEqual([
      [200, true],
      [200, true],
    ]);
    await reply(inquiry.id, key);

    const replies = await db().select().from(inquiryReplies);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ author: STAFF_EMAIL, subject: "Your training enquiry" });
    const mail = await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "inquiry_reply"));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({
      toAddress: "priya@bank.example",
      replyTo: STAFF_EMAIL,
      inquiryId: inquiry.id,
      subject: "Your training enquiry",
    });
    expect(replies[0]!.emailId).toBe(mail[0]!.id);
    // Signed by the sender, the enquiry quoted below; the enquirer's text escaped in the HTML.
    expect(mail[0]!.text).toContain("Dear Priya\n\nKind regards,");
    expect(mail[0]!.text).toContain("> We would like training for 12 analysts.\n> Can you quote?");

    // The reply answers it: the reply-due clock stops.
    const [after] = await db().select().from(inquiries).where(eq(inquiries.id, inquiry.id));
    expect(after!.status).toBe("replied");
    const page = await inquiryPage(inquiry.id, null);
    expect(page!.inquiry.replyDue).toBeNull();
    expect(page!.replies).toMatchObject([
      { author: STAFF_EMAIL, subject: "Your training enquiry", delivery: "queued" },
    ]);
    const audit = await db().select().from(auditLog).where(eq(auditLog.action, "inquiry.reply"));
    expect(audit).toHaveLength(1);

    // A new reply (a new key) is a second one.
    await reply(inquiry.id, "b".repeat(32), "Proposal", "Attached is our proposal.");
    expect(await db().select().from(inquiryReplies)).toHaveLength(2);
    expect((await inquiryPage(inquiry.id, null))!.replies.map((r) => r.subject)).toEqual([
      "Your training enquiry",
      "Proposal",
    ]);
  });

  it("refuses an empty reply, one to held spam or an erased enquiry, and sends nothing", async () => {
    const inquiry = await arrived();
    const empty = await reply(inquiry.id, "c".repeat(32), "Hi", "   ");
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ fieldErrors: { body: "Please write your reply." } });
    expect(empty.body.values).toMatchObject({ subject: "Hi" });

    const held = await arrived({ spamReason: "honeypot" });
    const refused = await reply(held.id, "d".repeat(32));
    expect(refused.status).toBe(400);
    expect(String(refused.body.message)).toMatch(/suspected spam/);

    const erased = await arrived({ anonymisedAt: new Date() });
    expect((await reply(erased.id, "e".repeat(32))).status).toBe(400);
    const missing = await reply("00000000-0000-4000-8000-000000000000", "f".repeat(32));
    expect(missing.status).toBe(404);

    expect(await db().select().from(inquiryReplies)).toHaveLength(0);
    expect(
      await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "inquiry_reply")),
    ).toEqual([]);
  });
});

describe("notes, owner and follow-up", () => {
  it("keeps every note with who wrote it; the latest is the enquiry's notes field", async () => {
    const inquiry = await arrived();
    const anna = await staffMember("anna", "Anna Clarke");
    expect(await addInquiryNote(inquiry.id, "Called them: budget agreed.", anna)).toBe(true);
    expect(await addInquiryNote(inquiry.id, "PO expected Friday.", anna)).toBe(true);
    // The update dialog's notes field still works: a changed one joins the list.
    await updateInquiryForAdmin(
      { id: inquiry.id, status: "in_progress", notes: "Quote sent by post." },
      anna,
    );
    // Saving the dialog with the same notes adds nothing.
    await updateInquiryForAdmin(
      { id: inquiry.id, status: "in_progress", notes: "Quote sent by post." },
      anna,
    );
    const page = await inquiryPage(inquiry.id, null);
    expect(page!.notes.map((n) => [n.author, n.body])).toEqual([
      ["anna@nightwatch.example", "Quote sent by post."],
      ["anna@nightwatch.example", "PO expected Friday."],
      ["anna@nightwatch.example", "Called them: budget agreed."],
    ]);
    expect(page!.inquiry.notes).toBe("Quote sent by post.");
    expect(await addInquiryNote("not-an-id", "x", anna)).toBe(false);
  });

  it("assigns an owner and a follow-up day; 'Mine' lists the signed-in admin's", async () => {
    const anna = await staffMember("anna", "Anna Clarke");
    const ben = await staffMember("ben", "Ben Okafor");
    const first = await arrived({ name: "First" });
    const second = await arrived({ name: "Second" });
    await arrived({ name: "Nobody's" });
    expect(
      await assignInquiry(
        first.id,
        { status: "in_progress", owner: anna.id, followUpOn: "2026-12-04" },
        ben,
      ),
    ).toEqual({ ok: true });
    await assignInquiry(second.id, { status: "new", owner: ben.id, followUpOn: null }, ben);
    expect(
      await assignInquiry(second.id, { status: "new", owner: "nobody", followUpOn: null }, ben),
    ).toEqual({ ok: false, reason: "unknown_owner" });

    const page = await inquiryPage(first.id, null);
    expect(page!.inquiry).toMatchObject({
      ownerId: "anna",
      followUpOn: "2026-12-04",
      status: "in_progress",
    });
    expect(page!.staff.map((s) => s.name)).toEqual(["Anna Clarke", "Ben Okafor"]);

    const names = async (query: string, viewer: string) =>
      (
        await inquiriesScreen(parseInquiryFilters(new URLSearchParams(query)), { adminId: viewer })
      ).items.map((i) => i.name);
    expect(await names("owner=mine", "anna")).toEqual(["First"]);
    expect(await names("owner=mine", "ben")).toEqual(["Second"]);
    expect(await names("owner=unassigned", "ben")).toEqual(["Nobody's"]);
    expect((await names("", "ben")).length).toBe(3);

    const audit = await db().select().from(auditLog).where(eq(auditLog.action, "inquiry.assign"));
    expect(audit.map((a) => a.after)).toContainEqual({
      status: "in_progress",
      ownerId: "anna",
      followUpOn: "2026-12-04",
    });
  });

  it("shows on the list how long each has waited, and a one-line preview", async () => {
    await arrived({ createdAt: new Date(Date.now() - 20 * HOUR - 60_000) });
    const [item] = (await inquiriesScreen(parseInquiryFilters(new URLSearchParams()))).items;
    expect(item!.waiting).toBe("20 h");
    expect(item!.preview).toBe("We would like training for 12 analysts. Can you quote?");
  });
});

describe("reply templates", () => {
  it("fills the composer from a template, with the enquirer's name", async () => {
    const inquiry = await arrived();
    // The migration's own templates are there on a new site; tests start from empty tables.
    const anna = await staffMember("anna", "Anna Clarke");
    await saveReplyTemplate(
      {
        intent: "saveTemplate",
        id: null,
        name: "File Interrogator licence",
        subject: "Your File Interrogator licence enquiry",
        body: "Dear {name},\n\nThank you.",
      },
      anna,
    );
    const [licence] = await listReplyTemplates();
    const page = await inquiryPage(inquiry.id, licence!.id);
    expect(page!.composer.subject).toBe("Your File Interrogator licence enquiry");
    expect(page!.composer.body.startsWith("Dear Priya Shah,\n\n")).toBe(true);
    // An unknown template leaves the composer empty.
    expect((await inquiryPage(inquiry.id, "nonsense"))!.composer.body).toBe("");
  });

  it("adds, edits and deletes templates; two may not share a name", async () => {
    const anna = await staffMember("anna", "Anna Clarke");
    const added = await saveReplyTemplate(
      {
        intent: "saveTemplate",
        id: null,
        name: "Chaser",
        subject: "Following up",
        body: "Dear {name}",
      },
      anna,
    );
    expect(added.ok).toBe(true);
    const id = added.ok ? added.id : "";
    expect(
      await saveReplyTemplate(
        { intent: "saveTemplate", id: null, name: "Chaser", subject: "x", body: "y" },
        anna,
      ),
    ).toEqual({ ok: false, reason: "name_taken" });
    await saveReplyTemplate(
      { intent: "saveTemplate", id, name: "Chaser", subject: "Checking in", body: "Dear {name}" },
      anna,
    );
    const [row] = await db()
      .select()
      .from(inquiryReplyTemplates)
      .where(eq(inquiryReplyTemplates.id, id));
    expect(row).toMatchObject({ subject: "Checking in", updatedBy: "anna@nightwatch.example" });
    expect(await deleteReplyTemplate(id, anna)).toBe(true);
    expect(await deleteReplyTemplate(id, anna)).toBe(false);
  });
});

describe("personal data", () => {
  it("exports the thread, and retention anonymises it with the enquiry", async () => {
    const old = await arrived({ createdAt: new Date(Date.now() - 40 * 31 * 24 * HOUR) });
    const anna = await staffMember("anna", "Anna Clarke");
    await reply(old.id, "g".repeat(32), "Re: training", "Dear Priya, dates attached.");
    await addInquiryNote(old.id, "Priya prefers mornings.", anna);

    const data = await findPersonalData("priya@bank.example");
    expect(data.inquiries[0]).toMatchObject({
      replies: [{ subject: "Re: training", body: "Dear Priya, dates attached." }],
      noteList: [{ author: "anna@nightwatch.example", body: "Priya prefers mornings." }],
    });

    await anonymiseExpiredInquiries();
    expect(await db().select().from(inquiryReplies)).toEqual([]);
    expect(await db().select().from(inquiryNotes)).toEqual([]);
  });
});

describe("the Dashboard's due-soon count", () => {
  it("counts its own range, whatever the overdue count", async () => {
    const now = new Date("2026-12-02T10:00:00Z");
    await arrived({ createdAt: new Date(now.getTime() - 30 * HOUR) });
    await arrived({ createdAt: new Date(now.getTime() - 22 * HOUR) });
    await arrived({ createdAt: new Date(now.getTime() - 21 * HOUR) });
    expect(await repliesDue(now)).toMatchObject({ overdue: 1, dueSoon: 2 });
  });
});
