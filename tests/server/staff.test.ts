import { eq, notLike } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { getAdmin, type AdminUser } from "#server/auth/guard.server.ts";
import { handleAuthRequest, signInWithPassword } from "#server/auth/sign-in.server.ts";
import { passwordLinkState } from "#server/auth/password-links.server.ts";
import { config } from "#server/config.server.ts";
import { account, auditLog, emailOutbox, session, twoFactor, user } from "#server/db/schema.ts";
import {
  inviteAdmin,
  listStaff,
  removeAdmin,
  resendInvitation,
  resetTwoFactor,
} from "#server/staff.server.ts";
import { PASSWORD_SET_MESSAGE } from "#app/lib/admin/staff.ts";
import * as resetPage from "#app/routes/auth/reset-password.tsx";
import * as staffPageModule from "#app/routes/admin/staff.tsx";
import {
  adminCookie,
  origin,
  STAFF_PASSWORD as PASSWORD,
  signInRequest,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, freshIp } from "#tests/support/forms.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const staffPage = throughAdminLayout(staffPageModule);

const database = useFreshDatabase();

const INVITEE = "new.admin@example.com";

type Action = Parameters<typeof callAction>[0];

async function admin(email: string): Promise<AdminUser> {
  return createAdmin({ email, password: PASSWORD });
}

async function signedInCookie(email: string, password = PASSWORD): Promise<string> {
  const response = await handleAuthRequest(signInRequest(email, password), freshIp());
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function signIn(email: string, password: string) {
  return signInWithPassword(
    new Request(`${origin}/auth`, { method: "POST", headers: { Origin: origin } }),
    { email, password },
    freshIp(),
  );
}

async function invitations(to = INVITEE) {
  const rows = await database().db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
  return rows.filter((r) => r.kind === "staff_invitation");
}

function tokenOf(text: string): string {
  const match = /\/auth\/reset-password\?token=([^\s&]+)/.exec(text);
  expect(match, text).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

async function auditActions() {
  // Sign-ins write their own auth.* rows (decision 0017); these are the staff screen's.
  const rows = await database()
    .db.select()
    .from(auditLog)
    .where(notLike(auditLog.action, "auth.%"))
    .orderBy(auditLog.at);
  return rows.map((r) => [r.action, r.actorEmail, r.summary]);
}

function staffAction(fields: Record<string, string>, cookie: string) {
  return callAction(
    staffPage.action as unknown as Action,
    formRequest(fields, { path: "/admin/staff", headers: { Origin: origin, Cookie: cookie } }),
  );
}

describe("inviting an admin", () => {
  it("creates a pending admin with a password nobody knows, one invitation e-mail and an audit row", async () => {
    const me = await admin("me@example.com");
    const result = await inviteAdmin(me, INVITEE);
    expect(result).toMatchObject({ ok: true, email: INVITEE, emailQueued: true });

    const { db } = database();
    const [row] = await db.select().from(user).where(eq(user.email, INVITEE));
    expect(row).toMatchObject({ invitationPending: true, twoFactorEnabled: false });
    const [credential] = await db.select().from(account).where(eq(account.userId, row!.id));
    expect(credential?.providerId).toBe("credential");
    expect(credential?.password).toBeTruthy();

    const mails = await invitations();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/invited/);
    expect(mails[0]!.text).toContain("me@example.com");
    expect(mails[0]!.text).toContain(`${config.publicUrl}/auth/reset-password?token=`);
    expect(await database().db.select().from(emailOutbox)).toHaveLength(1);

    expect(await auditActions()).toEqual([["admin.invite", "me@example.com", INVITEE]]);
    const staff = await listStaff();
    expect(staff.map((s) => [s.email, s.invitationPending])).toEqual([
      ["me@example.com", false],
      [INVITEE, true],
    ]);
  });

  it("refuses an address that is already an admin's, as a message on the field", async () => {
    const cookie = await adminCookie(); // staff@example.com
    const first = await staffAction({ intent: "invite", email: INVITEE }, cookie);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, message: `Invitation sent to ${INVITEE}` });

    for (const email of [INVITEE.toUpperCase(), " staff@example.com "]) {
      const again = await staffAction({ intent: "invite", email }, cookie);
      expect(again.status).toBe(409);
      expect(!again.body.ok && again.body.fieldErrors.email).toMatch(/is already an admin/);
    }
    const bad = await staffAction({ intent: "invite", email: "not-an-address" }, cookie);
    expect(bad.status).toBe(400);
    expect(!bad.body.ok && bad.body.fieldErrors.email).toBeTruthy();

    expect(await invitations()).toHaveLength(1);
    expect((await database().db.select().from(user)).length).toBe(2);
  });

  it("the invitee sets their password through the link, once, and can sign in", async () => {
    const me = await admin("me@example.com");
    await inviteAdmin(me, INVITEE);
    const token = tokenOf((await invitations())[0]!.text);
    expect(await passwordLinkState(token)).toEqual({ valid: true, invitation: true });
    // Nobody can sign in with the invitation's random password.
    expect((await signIn(INVITEE, PASSWORD)).ok).toBe(false);

    const chosen = "the invitee's own passphrase";
    const done = await callAction(
      resetPage.action as unknown as Action,
      formRequest(
        { token, password: chosen, confirmPassword: chosen },
        { path: "/auth/reset-password", headers: { Origin: origin } },
      ),
    );
    expect(done.body).toMatchObject({ ok: true, message: PASSWORD_SET_MESSAGE });
    const [row] = await database().db.select().from(user).where(eq(user.email, INVITEE));
    expect(row?.invitationPending).toBe(false);
    expect((await signIn(INVITEE, chosen)).ok).toBe(true);
    expect(await passwordLinkState(token)).toEqual({ valid: false });

    expect((await auditActions()).map((a) => a[0])).toEqual([
      "admin.invite",
      "admin.password_reset",
    ]);
    const [accepted] = await listStaff().then((s) => s.filter((m) => m.email === INVITEE));
    expect(accepted?.lastSignInAt).not.toBeNull();
  });

  it("resends an invitation while it is pending, and only then", async () => {
    const me = await admin("me@example.com");
    const invited = await inviteAdmin(me, INVITEE);
    if (!invited.ok) throw new Error("invite failed");
    expect(await resendInvitation(me, invited.id)).toMatchObject({ ok: true, emailQueued: true });
    const mails = await invitations();
    expect(mails).toHaveLength(2);
    const [first, second] = mails.map((m) => tokenOf(m.text));
    expect(first).not.toBe(second);
    expect(await auditActions()).toEqual([
      ["admin.invite", "me@example.com", INVITEE],
      ["admin.invitation_resent", "me@example.com", INVITEE],
    ]);

    // Set through the newer link: no longer pending, so nothing more to resend.
    await callAction(
      resetPage.action as unknown as Action,
      formRequest(
        {
          token: second!,
          password: "another good passphrase",
          confirmPassword: "another good passphrase",
        },
        { path: "/auth/reset-password", headers: { Origin: origin } },
      ),
    );
    expect(await resendInvitation(me, invited.id)).toMatchObject({
      ok: false,
      reason: "not_pending",
    });
    expect(await resendInvitation(me, "no-such-id")).toMatchObject({
      ok: false,
      reason: "not_found",
    });
  });
});

describe("removing an admin", () => {
  it("deletes the account and ends their sessions at once, with an audit row", async () => {
    const me = await admin("me@example.com");
    const other = await admin("other@example.com");
    const theirCookie = await signedInCookie("other@example.com");
    expect(
      (await getAdmin(new Request(`${origin}/admin`, { headers: { Cookie: theirCookie } })))?.id,
    ).toBe(other.id);

    expect(await removeAdmin(me, other.id)).toEqual({ ok: true, email: "other@example.com" });
    const { db } = database();
    expect(await db.select().from(user).where(eq(user.id, other.id))).toHaveLength(0);
    expect(await db.select().from(session).where(eq(session.userId, other.id))).toHaveLength(0);
    expect(
      await getAdmin(new Request(`${origin}/admin`, { headers: { Cookie: theirCookie } })),
    ).toBeNull();

    const [row] = await db.select().from(auditLog).where(notLike(auditLog.action, "auth.%"));
    expect(row).toMatchObject({
      action: "admin.remove",
      actorId: me.id,
      subjectId: other.id,
      summary: "other@example.com",
    });
    expect(row!.before).toMatchObject({ email: "other@example.com" });
  });

  it("refuses removing yourself", async () => {
    const me = await admin("me@example.com");
    await admin("other@example.com");
    expect(await removeAdmin(me, me.id)).toEqual({ ok: false, reason: "self" });
    expect(await database().db.select().from(user)).toHaveLength(2);
    expect(await database().db.select().from(auditLog)).toHaveLength(0);
  });

  it("never removes the last admin who can sign in, even when two remove each other at once", async () => {
    const a = await admin("a@example.com");
    const b = await admin("b@example.com");
    // Each signed in, each removing the other at the same moment: only one can win.
    const results = await Promise.all([removeAdmin(a, b.id), removeAdmin(b, a.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([
      expect.objectContaining({ ok: false, reason: "last_admin" }),
    ]);
    expect(await database().db.select().from(user)).toHaveLength(1);

    // A pending invitee cannot sign in yet: they do not count.
    const survivor = results[0]!.ok ? a : b;
    const gone = survivor === a ? b : a;
    const invited = await inviteAdmin(survivor, INVITEE);
    if (!invited.ok) throw new Error("invite failed");
    expect(await removeAdmin(gone, survivor.id)).toMatchObject({ ok: false, reason: "last_admin" });
    // The survivor may withdraw the invitation.
    expect(await removeAdmin(survivor, invited.id)).toMatchObject({ ok: true });
    expect((await auditActions()).map((r) => r[0])).toEqual([
      "admin.remove",
      "admin.invite",
      "admin.remove",
    ]);
  });

  it("through the screen: removes another admin, refuses yourself", async () => {
    const cookie = await adminCookie(); // staff@example.com
    const other = await admin("other@example.com");
    const me = (await listStaff()).find((s) => s.email === "staff@example.com")!;

    const self = await staffAction({ intent: "remove", userId: me.id }, cookie);
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ ok: false, message: "You cannot remove your own account." });

    const removed = await staffAction({ intent: "remove", userId: other.id }, cookie);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ ok: true, message: "other@example.com removed" });
    expect((await listStaff()).map((s) => s.email)).toEqual(["staff@example.com"]);
  });
});

describe("resetting a colleague's two-factor sign-in", () => {
  /** An admin with two-factor on and a session that passed it (as a real sign-in leaves). */
  async function adminWithTwoFactor(email: string) {
    const created = await admin(email);
    const cookie = await signedInCookie(email);
    const { db } = database();
    await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, created.id));
    await db.update(session).set({ twoFactorVerified: true }).where(eq(session.userId, created.id));
    await db.insert(twoFactor).values({
      id: `tf-${created.id}`,
      secret: "encrypted-secret",
      backupCodes: "encrypted-codes",
      userId: created.id,
    });
    return { created, cookie };
  }

  it("turns it off, deletes their secret, ends their sessions, with an audit row", async () => {
    const me = await admin("me@example.com");
    const { created: other, cookie } = await adminWithTwoFactor("other@example.com");
    const asThem = () => getAdmin(new Request(`${origin}/admin`, { headers: { Cookie: cookie } }));
    expect((await asThem())?.id).toBe(other.id);

    expect(await resetTwoFactor(me, other.id)).toEqual({
      ok: true,
      email: "other@example.com",
      sessionsEnded: 1,
    });
    const { db } = database();
    const [row] = await db.select().from(user).where(eq(user.id, other.id));
    expect(row!.twoFactorEnabled).toBe(false);
    expect(await db.select().from(twoFactor).where(eq(twoFactor.userId, other.id))).toHaveLength(0);
    expect(await asThem()).toBeNull();
    // They sign in again with the password alone.
    expect(await signIn("other@example.com", PASSWORD)).toMatchObject({
      ok: true,
      twoFactor: false,
    });
    expect(await auditActions()).toEqual([
      ["admin.two_factor_reset", "me@example.com", "other@example.com"],
    ]);
    // A second reset finds nothing to do.
    expect(await resetTwoFactor(me, other.id)).toMatchObject({ ok: false, reason: "not_enabled" });
  });

  it("through the screen: resets a colleague's, refuses your own and one that is off", async () => {
    const cookie = await adminCookie(); // staff@example.com
    const { created: other } = await adminWithTwoFactor("other@example.com");
    const plain = await admin("plain@example.com");
    const me = (await listStaff()).find((s) => s.email === "staff@example.com")!;

    const self = await staffAction({ intent: "reset-two-factor", userId: me.id }, cookie);
    expect(self.status).toBe(403);
    const off = await staffAction({ intent: "reset-two-factor", userId: plain.id }, cookie);
    expect(off.status).toBe(409);
    const reset = await staffAction({ intent: "reset-two-factor", userId: other.id }, cookie);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ ok: true, form: "reset-two-factor" });
    expect((await listStaff()).find((s) => s.id === other.id)?.twoFactorEnabled).toBe(false);
  });
});
