import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as settingsModule from "#app/routes/admin/settings.tsx";
import { SELLER_SETTING_KEYS, SELLER_SETTINGS_MESSAGES } from "#app/lib/admin/seller-settings.ts";
import { sellerSettings } from "#server/config/seller.server.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, sellerSettingsTable } from "#server/db/schema.ts";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { refreshSellerSettings, sellerSettingsScreen } from "#server/seller-settings.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { documents } from "#tests/support/invoices.ts";
import { ADMIN, insertCourse, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * The seller settings staff change on the admin Settings screen, on a real database: the
 * environment's values until saved, the same checks as at start (a refused value changes
 * nothing), an audit row naming what changed, and the change in force for the next invoice
 * while the one already issued keeps its own.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

const route = throughAdminLayout(settingsModule);
const posts = useAdminPosts();
const save = (fields: Record<string, string>) =>
  posts(route, "/admin/settings", {}, { intent: "sellerSettings", ...fields });

let courses = 0;
async function invoiced() {
  const course = await insertCourse({ slug: `settings-${++courses}` });
  const placed = await placeOrder(course.id, "invoice");
  if (!placed.ok) throw new Error("not placed");
  expect((await changeOrderStatusByAdmin(placed.order.id, "invoiced", ADMIN)).ok).toBe(true);
  const [invoice] = await documents(placed.order.id);
  return invoice!.snapshot as DocumentSnapshot;
}

describe("the seller settings", () => {
  it("cover every seller setting the environment has", () => {
    expect([...SELLER_SETTING_KEYS].sort()).toEqual(Object.keys(sellerSettings).sort());
  });

  it("show the environment's values until saved, then the saved ones, in force for the next invoice", async () => {
    await refreshSellerSettings();
    const before = await sellerSettingsScreen();
    expect(before.values.BANK_ACCOUNT_NUMBER).toBe("12345678");
    expect(before.values.BANK_IBAN).toBe("");
    expect(before.fromEnvironment).toContain("BANK_SORT_CODE");
    expect(before.updatedAt).toBeNull();
    const first = await invoiced();
    expect(first.payment?.bank).toMatchObject({ sortCode: "12-34-56", accountNumber: "12345678" });

    const answer = await save({
      BANK_SORT_CODE: "654321",
      BANK_ACCOUNT_NUMBER: "87654321",
      INVOICE_REMINDER_DAYS: "none",
      SELLER_ADDRESS: "2 New Street\nLeeds\nLS1 1AA",
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { ok: true, message: SELLER_SETTINGS_MESSAGES.saved },
    });
    expect(config.seller.bank).toMatchObject({ sortCode: "65-43-21", accountNumber: "87654321" });
    expect(config.seller.addressLines).toEqual(["2 New Street", "Leeds", "LS1 1AA"]);
    expect(config.invoiceReminderDays).toEqual([]);

    const second = await invoiced();
    expect(second.payment?.bank).toMatchObject({ sortCode: "65-43-21", accountNumber: "87654321" });
    expect(second.seller.addressLines).toEqual(["2 New Street", "Leeds", "LS1 1AA"]);
    // The invoice issued before keeps what it was issued with.
    const [kept] = await documents(first.orderId);
    expect((kept!.snapshot as DocumentSnapshot).payment?.bank?.accountNumber).toBe("12345678");

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settings.seller"));
    expect(audit!.before).toEqual({
      SELLER_ADDRESS: "1 High Street, London, EC1A 1AA",
      INVOICE_REMINDER_DAYS: "",
      BANK_SORT_CODE: "12-34-56",
      BANK_ACCOUNT_NUMBER: "12345678",
    });
    expect(audit!.after).toMatchObject({ BANK_ACCOUNT_NUMBER: "87654321" });
    const after = await sellerSettingsScreen();
    expect(after.fromEnvironment).not.toContain("BANK_SORT_CODE");
    expect(after.updatedBy).toBe(STAFF_EMAIL);

    // The same values again: nothing to save.
    const again = await save({ BANK_ACCOUNT_NUMBER: "87654321" });
    expect(again.body).toMatchObject({ ok: true, message: SELLER_SETTINGS_MESSAGES.unchanged });
  });

  it("refuses values the start-up checks refuse, each beside its field, and changes nothing", async () => {
    await refreshSellerSettings();
    const refused = await save({
      BANK_SORT_CODE: "12-34",
      VAT_RATE_PERCENT: "twenty",
      SELLER_LEGAL_NAME: " ",
      BANK_ACCOUNT_NAME: "New name",
    });
    expect(refused.status).toBe(400);
    const { fieldErrors } = refused.body as { fieldErrors: Record<string, string> };
    expect(fieldErrors.BANK_SORT_CODE).toBe("must be six digits, e.g. 12-34-56");
    expect(fieldErrors.VAT_RATE_PERCENT).toBe("must be a number, e.g. 20");
    expect(fieldErrors.SELLER_LEGAL_NAME).toBe(SELLER_SETTINGS_MESSAGES.required);
    expect(fieldErrors.BANK_ACCOUNT_NAME).toBeUndefined();
    expect(await db().select().from(sellerSettingsTable)).toEqual([]);
    expect(config.seller.bank?.accountName).toBe("NightWatch Intelligence Ltd");
    expect(
      await db().select().from(auditLog).where(eq(auditLog.action, "settings.seller")),
    ).toEqual([]);
  });
});
