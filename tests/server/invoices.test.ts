import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderReference } from "#app/lib/orders/orders.ts";
import { db } from "#server/db/client.server.ts";
import { orderDocuments, orders } from "#server/db/schema.ts";
import { allocateDocumentNumber, issueCreditNote } from "#server/invoices/documents.server.ts";
import { type DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import {
  documents,
  mails,
  number,
  onlyDocument,
  placeOrder,
  YEAR,
} from "#tests/support/invoices.ts";
import { ADMIN } from "#tests/support/orders.ts";
/**
 * Invoices, receipts and credit notes (decision 0015) on a real database (PGlite, and PostgreSQL
 * when DATABASE_URL is set): document numbers, Mark Invoiced, credit notes, the cancellation e-mail
 * and a paid card order's receipt. The seller is VAT-registered here, with bank details: set before
 * the configuration module is first imported.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

const database = useFreshDatabase();
const isPostgres = Boolean(process.env.DATABASE_URL);

/** Runs `work` in a transaction of its own and returns what it gave, or the error it threw. */
function inTransaction<T>(work: Parameters<ReturnType<typeof db>["transaction"]>[0]) {
  return db().transaction(work) as Promise<T>;
}

describe("document numbers", () => {
  it("transactions issuing at once get one number each, consecutive, without gaps", async () => {
    // Each holds its number a moment before committing, so on PostgreSQL they really overlap.
    const issued = await Promise.all(
      Array.from({ length: 8 }, () =>
        inTransaction<string>(async (tx) => {
          const n = await allocateDocumentNumber(tx, "INV", YEAR);
          await tx.execute(sql`select pg_sleep(0.02)`);
          return n;
        }),
      ),
    );
    expect([...issued].sort()).toEqual(Array.from({ length: 8 }, (_, i) => number("INV", i + 1)));

    // Invoices for different orders, marked at once by different admins.
    const placed = [];
    for (let i = 0; i < 4; i++) placed.push(await placeOrder({ email: `buyer${i}@example.com` }));
    const results = await Promise.all(
      placed.map((o, i) =>
        changeOrderStatusByAdmin(o.id, "invoiced", { id: `a${i}`, email: `a${i}@x.co` }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const numbers = (await database().db.select().from(orderDocuments)).map((d) => d.number);
    expect(numbers.sort()).toEqual([9, 10, 11, 12].map((n) => number("INV", n)));
  });

  it("a rolled-back issue gives its number back, even to an issuer already waiting for it", async () => {
    let allocated!: () => void;
    const firstHasNumber = new Promise<void>((resolve) => (allocated = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = inTransaction<string>(async (tx) => {
      expect(await allocateDocumentNumber(tx, "INV", YEAR)).toBe(number("INV", 1));
      allocated();
      await gate;
      throw new Error("the order change failed after the number was taken");
    }).catch((error: unknown) => error);
    await firstHasNumber;
    let secondDone = false;
    const second = inTransaction<string>((tx) => allocateDocumentNumber(tx, "INV", YEAR)).then(
      (n) => {
        secondDone = true;
        return n;
      },
    );
    // The second waits for the first (PostgreSQL: the series row's lock) …
    await new Promise((r) => setTimeout(r, 150));
    expect(secondDone).toBe(false);
    // … which rolls back: the second gets the number the first gave back.
    release();
    expect(await first).toBeInstanceOf(Error);
    expect(await second).toBe(number("INV", 1));
    expect(await inTransaction((tx) => allocateDocumentNumber(tx, "INV", YEAR))).toBe(
      number("INV", 2),
    );
  });

  it("each series and year counts from 0001; a new year starts again", async () => {
    const take = (series: string, year: number) =>
      inTransaction<string>((tx) => allocateDocumentNumber(tx, series, year));
    expect(await take("INV", 2026)).toBe("INV-2026-0001");
    expect(await take("INV", 2026)).toBe("INV-2026-0002");
    expect(await take("CN", 2026)).toBe("CN-2026-0001");
    expect(await take("INV", 2027)).toBe("INV-2027-0001");
    expect(await take("INV", 2026)).toBe("INV-2026-0003");
  });

  it("a document is final: the database refuses to change or delete it", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const [invoice] = await documents(order.id);
    await expect(
      database()
        .db.update(orderDocuments)
        .set({ totalAmountCents: 1 })
        .where(eq(orderDocuments.id, invoice!.id)),
    ).rejects.toThrow();
    await expect(
      database().db.delete(orderDocuments).where(eq(orderDocuments.id, invoice!.id)),
    ).rejects.toThrow();
    // Nor can the order it belongs to be deleted from under it.
    await expect(database().db.delete(orders).where(eq(orders.id, order.id))).rejects.toThrow();
    expect(await documents(order.id)).toEqual([invoice]);
  });
});

describe("Mark Invoiced", () => {
  it("issues the invoice and queues it to the buyer, in the transaction of the change", async () => {
    const order = await placeOrder();
    const result = await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    expect(result.ok).toBe(true);
    const invoice = await onlyDocument(order.id);
    expect(invoice).toMatchObject({
      kind: "invoice",
      number: number("INV", 1),
      netAmountCents: 435_000,
      vatAmountCents: 87_000,
      totalAmountCents: 522_000,
      creditsDocumentId: null,
      issuedBy: "admin@example.com",
    });
    const snapshot = invoice!.snapshot as DocumentSnapshot;
    expect(snapshot).toMatchObject({
      title: "VAT invoice",
      orderReference: orderReference(order.id),
      seller: { vatNumber: "GB123456789", companyNumber: "01234567" },
      customer: { poNumber: "PO-77812", vatNumber: "GB987654321" },
      payment: { termsDays: 30, bank: { sortCode: "12-34-56", accountNumber: "12345678" } },
    });
    const [mail, ...more] = await mails(order.id, "invoice_issued");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      toAddress: "ada@example.com",
      documentId: invoice!.id,
      status: "pending",
      subject: `Your invoice ${number("INV", 1)} for order ${orderReference(order.id)}`,
    });
    expect(mail!.text).toContain("Sort code: 12-34-56");
    expect(mail!.text).toContain(
      `Please use your order reference ${orderReference(order.id)} as the payment reference.`,
    );
    expect(mail!.text).toContain("Total due: £5,220.00");
    // The buyer's confirmation of the request names the price as excluding VAT and the VAT.
    const [confirmation] = await mails(order.id, "invoice_request_confirmation");
    expect(confirmation!.text).toMatch(/Price per place \(excl\. VAT\):\s+£1,450\.00/);
    expect(confirmation!.text).toMatch(/VAT \(20%\):\s+£870\.00/);
  });

  it("two admins clicking at once: one invoice number, one e-mail", async () => {
    const order = await placeOrder();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        changeOrderStatusByAdmin(order.id, "invoiced", {
          id: `admin${i}`,
          email: `admin${i}@example.com`,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(
      Array.from({ length: 4 }, () => ({ ok: false, reason: "not_allowed", status: "invoiced" })),
    );
    const issued = await documents(order.id);
    expect(issued.map((d) => d.number)).toEqual([number("INV", 1)]);
    expect(await mails(order.id, "invoice_issued")).toHaveLength(1);
    // The series moved by one: the losers took no number.
    expect(await inTransaction((tx) => allocateDocumentNumber(tx, "INV", YEAR))).toBe(
      number("INV", 2),
    );
  });

  it("the unique index is the backstop: a second invoice for the order is refused", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const { issueInvoice } = await import("#server/invoices/documents.server.ts");
    const [row] = await database().db.select().from(orders).where(eq(orders.id, order.id));
    await expect(
      inTransaction((tx) => issueInvoice(tx, row!, [], { kind: "invoice", actor: "x" })),
    ).rejects.toThrow();
    expect((await documents(order.id)).map((d) => d.number)).toEqual([number("INV", 1)]);
  });
});

describe("credit notes", () => {
  it("canceling an invoiced order credits the whole invoice, once, in its own series", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    expect(await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).toMatchObject({
      ok: true,
    });
    const issued = await documents(order.id);
    expect(issued).toHaveLength(2);
    const inv = issued.find((d) => d.kind === "invoice")!;
    const cn = issued.find((d) => d.kind === "credit_note")!;
    expect(cn).toMatchObject({
      kind: "credit_note",
      number: number("CN", 1),
      creditsDocumentId: inv.id,
      netAmountCents: inv.netAmountCents,
      vatAmountCents: inv.vatAmountCents,
      totalAmountCents: inv.totalAmountCents,
      reason: "Order cancelled",
      issuedBy: "admin@example.com",
    });
    expect(cn.snapshot).toMatchObject({
      title: "Credit note",
      credits: { number: inv.number },
      customer: { poNumber: "PO-77812" },
    });
    // Nothing left to credit: a further credit note is refused.
    const [row] = await database().db.select().from(orders).where(eq(orders.id, order.id));
    expect(
      await inTransaction((tx) => issueCreditNote(tx, row!, { reason: "again", actor: "x" })),
    ).toBeNull();
    // The invoice itself is as it was issued.
    expect((await documents(order.id)).find((d) => d.id === inv.id)).toEqual(inv);
  });

  it("canceling a pending order issues none", async () => {
    const order = await placeOrder();
    expect(await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).toMatchObject({ ok: true });
    expect(await documents(order.id)).toEqual([]);
    const card = await placeOrder({ method: "stripe" });
    await transitionOrder(card.id, "canceled", { source: "webhook" });
    expect(await documents(card.id)).toEqual([]);
  });

  it("never more is credited than was invoiced", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const [row] = await database().db.select().from(orders).where(eq(orders.id, order.id));
    const credit = (amountCents?: number) =>
      inTransaction<Awaited<ReturnType<typeof issueCreditNote>>>((tx) =>
        issueCreditNote(tx, row!, { amountCents, reason: "partial", actor: "x" }),
      );
    expect(await credit(100_000)).toMatchObject({
      totalAmountCents: 100_000,
      vatAmountCents: 16_667,
      netAmountCents: 83_333,
    });
    // Asked for more than is left: only the rest.
    expect(await credit(900_000)).toMatchObject({ totalAmountCents: 422_000 });
    expect(await credit(1)).toBeNull();
    const credited = (await documents(order.id)).filter((d) => d.kind === "credit_note");
    expect(credited.map((d) => (d.snapshot as DocumentSnapshot).lines[0]!.description)).toEqual([
      expect.stringMatching(new RegExp(`^Partial credit for VAT invoice ${number("INV", 1)}: `)),
      expect.stringMatching(new RegExp(`^Final credit for VAT invoice ${number("INV", 1)}: `)),
    ]);
    expect(credited.map((d) => d.number)).toEqual([number("CN", 1), number("CN", 2)]);
    expect(credited.reduce((sum, d) => sum + d.totalAmountCents, 0)).toBe(522_000);
  });
});

describe("telling the buyer of a cancellation", () => {
  it("with notifyBuyer: an e-mail, the credit note attached when an invoice was credited", async () => {
    const invoiced = await placeOrder();
    await changeOrderStatusByAdmin(invoiced.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(invoiced.id, "canceled", ADMIN, {
      notifyBuyer: true,
      reason: "Course no longer needed",
    });
    const creditNote = (await documents(invoiced.id)).find((d) => d.kind === "credit_note")!;
    const [mail, ...more] = await mails(invoiced.id, "order_canceled");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      toAddress: "ada@example.com",
      documentId: creditNote.id,
      subject: `Your order ${orderReference(invoiced.id)} has been cancelled`,
    });
    expect(mail!.text).toContain(`Credit note: ${number("CN", 1)}`);
    expect(mail!.text).toContain(`Credits: VAT invoice ${number("INV", 1)}`);
    expect(mail!.text).toContain("Reason: Course no longer needed");
    expect(mail!.text).toContain(`for the whole of VAT invoice ${number("INV", 1)}`);

    const pending = await placeOrder({ email: "bob@example.com" });
    await changeOrderStatusByAdmin(pending.id, "canceled", ADMIN, { notifyBuyer: true });
    const [plain] = await mails(pending.id, "order_canceled");
    expect(plain).toMatchObject({ toAddress: "bob@example.com", documentId: null });
    expect(plain!.text).toContain("Nothing is due for this order.");
  });

  it("without notifyBuyer: no e-mail (the credit note is issued all the same)", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN, { notifyBuyer: false });
    expect(await mails(order.id, "order_canceled")).toEqual([]);
    expect((await documents(order.id)).map((d) => d.kind).sort()).toEqual([
      "credit_note",
      "invoice",
    ]);
  });

  it("what a visitor typed is escaped in the HTML", async () => {
    const order = await placeOrder();
    await database()
      .db.update(orders)
      .set({ buyerFirstName: "<b>Ada</b>" })
      .where(eq(orders.id, order.id));
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN, { notifyBuyer: true });
    const [mail] = await mails(order.id, "order_canceled");
    expect(mail!.html).toContain("Dear &lt;b&gt;Ada&lt;/b&gt;,");
    expect(mail!.html).not.toContain("<b>Ada</b>");
  });
});

describe("a paid card order", () => {
  it("gets a VAT receipt, attached to the buyer's receipt e-mail only", async () => {
    const order = await placeOrder({ method: "stripe" });
    await transitionOrder(order.id, "paid", { source: "webhook" });
    const receipt = await onlyDocument(order.id);
    expect(receipt).toMatchObject({
      kind: "receipt",
      number: number("INV", 1),
      totalAmountCents: 522_000,
      issuedBy: "stripe",
    });
    expect(receipt!.snapshot).toMatchObject({
      title: "VAT receipt",
      dueDate: null,
      paid: { method: "Card" },
    });
    const all = await mails(order.id);
    expect(all.find((m) => m.kind === "order_receipt")).toMatchObject({
      toAddress: "ada@example.com",
      documentId: receipt!.id,
    });
    expect(all.find((m) => m.kind === "order_receipt")!.text).toContain(
      `Your VAT receipt ${number("INV", 1)} is attached as a PDF.`,
    );
    const joining = all.filter((m) => m.kind === "course_joining_details");
    expect(joining).toHaveLength(3);
    expect(joining.every((m) => m.documentId === null)).toBe(true);
  });

  it("an invoice order marked paid keeps its one invoice (no receipt is numbered)", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
    expect((await documents(order.id)).map((d) => d.kind)).toEqual(["invoice"]);
    const [receiptMail] = await mails(order.id, "order_receipt");
    expect(receiptMail!.documentId).toBeNull();
  });
});

it("runs on the database this project names", () => {
  expect(isPostgres).toBe(process.env.TEST_DATABASE === "postgres");
});
