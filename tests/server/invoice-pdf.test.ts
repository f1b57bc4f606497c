import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it, vi } from "vitest";
import { orderReference } from "#app/lib/orders/orders.ts";
import * as documentModule from "#app/routes/admin/order-document.ts";
import { config } from "#server/config.server.ts";
import { emailOutbox } from "#server/db/schema.ts";
import { fileMailer, OutboxWorker, smtpMailer } from "#server/email/worker.server.ts";
import { documentsOfOrder } from "#server/invoices/documents.server.ts";
import { type DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import { drawDocumentPdf } from "#server/invoices/pdf.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { pdfText } from "#tests/support/pdf-text.ts";
import { freePort, startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";
import { documents, drain, mails, number, placeOrder } from "#tests/support/invoices.ts";
import { ADMIN } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const documentRoute = throughAdminLayout(documentModule);

/**
 * The invoice, receipt and credit note PDFs (drawn as real PDFs, read back with PDF.js), sent
 * through a real SMTP server on loopback and downloaded by an admin, on a real database (PGlite,
 * and PostgreSQL when DATABASE_URL is set). The seller is VAT-registered here, with bank details:
 * set before the configuration module is first imported.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

const database = useFreshDatabase();

let sink: SmtpSink | undefined;
const workers: OutboxWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await sink?.close();
  sink = undefined;
});

describe("the PDF", () => {
  it("holds what HMRC and the buyer's finance team look for, the same bytes every time", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const [invoice] = await documentsOfOrder(order.id);
    const file = (await documentPdf(invoice!.id))!;
    expect(file.filename).toBe(`${number("INV", 1)}.pdf`);
    expect(file.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(file.pdf);
    for (const expected of [
      "VAT invoice",
      number("INV", 1),
      orderReference(order.id),
      "PO-77812",
      "CB2 1TN",
      "Analytical Engines Ltd",
      "2 Babbage Row",
      "Ada Lovelace",
      "GB987654321",
      "NightWatch Intelligence Ltd",
      "1 High Street",
      "VAT registration no. GB123456789",
      "Company no. 01234567",
      "OSINT Investigations Masterclass",
      "Grace Hopper, Alan Turing, Katherine Johnson",
      "£1,450.00",
      "20%",
      "£4,350.00",
      "£870.00",
      "£5,220.00",
      "Date of issue",
      "Time of supply",
      "Due date",
      "12-34-56",
      "12345678",
      `Please use your order reference ${orderReference(order.id)} as the payment reference.`,
    ]) {
      expect(text, expected).toContain(expected);
    }
    const snapshot = invoice!.snapshot as DocumentSnapshot;
    expect((await drawDocumentPdf(snapshot)).equals(file.pdf)).toBe(true);
  });

  it("a credit note names the document it credits, by its title, and staff's reason", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN, {
      reason: "Training budget withdrawn",
    });
    const creditNote = (await documents(order.id)).find((d) => d.kind === "credit_note")!;
    const text = await pdfText((await documentPdf(creditNote.id))!.pdf);
    expect(text).toContain("Credit note");
    expect(text).toContain(number("CN", 1));
    expect(text).toContain(`VAT invoice ${number("INV", 1)}`);
    expect(text).toContain("VAT invoice dated");
    expect(text).toContain(`credits VAT invoice ${number("INV", 1)}`);
    expect(text).toContain(`Credit for VAT invoice ${number("INV", 1)}`);
    expect(text).not.toContain("Partial credit");
    expect(text).toContain("Reason: Training budget withdrawn");
    expect(text).toContain("£5,220.00");
  });

  it("a credit note kept before the credited title was recorded is drawn as it was sent", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    const creditNote = (await documents(order.id)).find((d) => d.kind === "credit_note")!;
    const kept = creditNote.snapshot as DocumentSnapshot;
    const older: DocumentSnapshot = {
      ...kept,
      credits: { number: kept.credits!.number, issuedAt: kept.credits!.issuedAt },
    };
    const text = await pdfText(await drawDocumentPdf(older));
    expect(text).toContain(`credits invoice ${number("INV", 1)}`);
    expect(text).toContain("Invoice dated");
    expect(text).toContain("Reason: Order cancelled");
  });

  it("a receipt says when and how it was paid", async () => {
    const order = await placeOrder({ method: "stripe", quantity: 1 });
    await transitionOrder(order.id, "paid", { source: "success_page" });
    const [receipt] = await documents(order.id);
    const text = await pdfText((await documentPdf(receipt!.id))!.pdf);
    expect(text).toContain("VAT receipt");
    expect(text).toMatch(/Paid in full on \d{1,2} \w+ \d{4} by card/);
    expect(text).toContain("£1,740.00");
  });
});

describe("sending documents through the outbox", () => {
  it("the invoice e-mail reaches the mail server with its PDF, after the server was down", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    // Other e-mails of the order went earlier.
    await database()
      .db.update(emailOutbox)
      .set({ status: "sent" })
      .where(and(eq(emailOutbox.orderId, order.id), sql`${emailOutbox.kind} <> 'invoice_issued'`));

    // The mail server is down: the message stays, to be tried again.
    const down = new OutboxWorker({
      mailer: smtpMailer(`smtp://127.0.0.1:${await freePort()}`),
      retryBaseMs: 1,
      retryMaxMs: 1,
    });
    workers.push(down);
    await down.runOnce();
    const [failed] = await mails(order.id, "invoice_issued");
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i);

    sink = await startSmtpSink();
    const up = new OutboxWorker({ mailer: smtpMailer(sink.url) });
    workers.push(up);
    await new Promise((r) => setTimeout(r, 5));
    await drain(up);
    expect(sink.messages).toHaveLength(1);
    const message = sink.messages[0]!;
    expect(message.envelopeTo).toEqual(["ada@example.com"]);
    expect(message.parsed.subject).toBe(
      `Your invoice ${number("INV", 1)} for order ${orderReference(order.id)}`,
    );
    expect(message.parsed.attachments).toHaveLength(1);
    const [attachment] = message.parsed.attachments;
    expect(attachment).toMatchObject({
      filename: `${number("INV", 1)}.pdf`,
      contentType: "application/pdf",
    });
    const text = await pdfText(attachment!.content);
    for (const expected of [
      number("INV", 1),
      orderReference(order.id),
      "PO-77812",
      "CB2 1TN",
      "£4,350.00",
      "£870.00",
      "£5,220.00",
    ]) {
      expect(text).toContain(expected);
    }
    expect((await mails(order.id, "invoice_issued"))[0]).toMatchObject({
      status: "sent",
      attempts: 2,
    });
  });

  it("without SMTP the .eml copy carries the PDF too; messages without a document carry none", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nw-invoices-"));
    try {
      const order = await placeOrder();
      await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
      const w = new OutboxWorker({ mailer: fileMailer(dir) });
      workers.push(w);
      await drain(w);
      const files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(3); // the alert, the confirmation, the invoice
      for (const file of files) {
        const parsed = await simpleParser(readFileSync(path.join(dir, file)));
        if (file.includes("invoice_issued")) {
          expect(parsed.attachments.map((a) => a.filename)).toEqual([`${number("INV", 1)}.pdf`]);
          expect(await pdfText(parsed.attachments[0]!.content)).toContain("PO-77812");
        } else {
          expect(parsed.attachments).toEqual([]);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the admin download", () => {
  const origin = new URL(config.publicUrl).origin;
  const call = (orderId: string, documentId: string, cookie?: string) =>
    documentRoute.loader({
      request: new Request(`${origin}/admin/payments/${orderId}/documents/${documentId}`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      params: { orderId, documentId },
      context: {},
    } as never);

  it("gives an admin the order's PDF as an attachment, never cached; 404 for any other", async () => {
    const cookie = await adminCookie();
    const order = await placeOrder();
    const other = await placeOrder({ email: "other@example.com" });
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const [invoice] = await documents(order.id);

    const response = await call(order.id, invoice!.id, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${number("INV", 1)}.pdf"`,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain(number("INV", 1));

    for (const [orderId, documentId] of [
      [other.id, invoice!.id],
      [order.id, "00000000-0000-4000-8000-000000000000"],
      [order.id, "not-a-uuid"],
      ["nope", invoice!.id],
    ] as const) {
      const missing = await call(orderId, documentId, cookie);
      expect(missing.status, `${orderId}/${documentId}`).toBe(404);
      expect(missing.headers.get("Cache-Control")).toBe("private, no-store");
    }
  });

  it("sends an anonymous visitor to sign in, whatever the ids", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const [invoice] = await documents(order.id);
    const outcome = await call(order.id, invoice!.id).catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBeGreaterThanOrEqual(300);
    expect((outcome as Response).status).toBeLessThan(400);
    expect((outcome as Response).headers.get("Location")).toBe(
      `/auth?redirectTo=${encodeURIComponent(`/admin/payments/${order.id}/documents/${invoice!.id}`)}`,
    );
  });
});
