import { sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import {
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orderDocuments,
  orderStudents,
  orders,
} from "#server/db/schema.ts";

/** Personal data for the privacy tests: one person's records across the site, and counts. */

/** The person whose data the tests find, export and erase. */
export const PERSON = "jane.doe@example.com";

/** Jane's inquiry, subscription, order (with her and a colleague as students), a place on
 * someone else's order, and e-mails; plus someone else's data that must not be touched. */
export async function seedPerson(db: Database) {
  const [inquiry] = await db
    .insert(inquiries)
    .values({
      name: "Jane Doe",
      email: "  Jane.Doe@Example.com ",
      phone: "07700 900123",
      company: "Doe Ltd",
      message: "Please call me",
    })
    .returning();
  const [other] = await db
    .insert(inquiries)
    .values({ name: "Bob", email: "bob@example.com", message: "Hello" })
    .returning();
  await db
    .insert(newsletterSubscriptions)
    .values([{ email: "JANE.DOE@example.com", source: "footer" }, { email: "bob@example.com" }]);
  const orderValues = {
    status: "invoiced" as const,
    paymentMethod: "invoice" as const,
    courseTitleSnapshot: "OSINT",
    unitPriceCents: 10000,
    quantity: 2,
    netAmountCents: 20000,
    vatAmountCents: 4000,
    vatRateBasisPoints: 2000,
    totalAmountCents: 24000,
  };
  const [order] = await db
    .insert(orders)
    .values({
      ...orderValues,
      buyerFirstName: "Jane",
      buyerLastName: "Doe",
      buyerEmail: "jane.doe@EXAMPLE.com",
      buyerPhone: "07700 900123",
      buyerCompany: "Doe Ltd",
      billingOrganisation: "Doe Ltd",
      billingAddressLine1: "1 High Street",
      billingTown: "London",
      billingPostcode: "SW1A 1AA",
      billingCountry: "GB",
      poNumber: "PO-7",
      buyerVatNumber: "GB123456789",
      createdAt: new Date("2026-01-05T10:00:00Z"),
    })
    .returning();
  const [bobsOrder] = await db
    .insert(orders)
    .values({
      ...orderValues,
      buyerFirstName: "Bob",
      buyerLastName: "Smith",
      buyerEmail: "bob@example.com",
    })
    .returning();
  await db.insert(orderStudents).values([
    { orderId: order!.id, position: 1, firstName: "Jane", lastName: "Doe", email: PERSON },
    { orderId: order!.id, position: 2, firstName: "Ann", lastName: "Lee", email: "ann@x.com" },
    {
      orderId: bobsOrder!.id,
      position: 1,
      firstName: "Bob",
      lastName: "Smith",
      email: "bob@example.com",
    },
    {
      orderId: bobsOrder!.id,
      position: 2,
      firstName: "Jane",
      lastName: "Doe",
      email: "Jane.Doe@example.com",
    },
  ]);
  const [invoice] = await db
    .insert(orderDocuments)
    .values({
      orderId: order!.id,
      kind: "invoice",
      number: "INV-2026-0042",
      netAmountCents: 20000,
      vatAmountCents: 4000,
      totalAmountCents: 24000,
      issuedBy: "staff@example.com",
      snapshot: { number: "INV-2026-0042", customer: { name: "Jane Doe" } },
    })
    .returning();
  const mails = await db
    .insert(emailOutbox)
    .values([
      // to her, in a list, in another case
      {
        kind: "visitor_confirmation",
        toAddress: `x@example.com, ${PERSON.toUpperCase()}`,
        subject: "Thanks",
        html: "<p>Hi</p>",
        text: "Hi",
        status: "sent",
        inquiryId: inquiry!.id,
      },
      // the admin alert about her inquiry (to staff)
      {
        kind: "admin_alert",
        toAddress: "staff@example.com",
        subject: "New inquiry",
        html: "x",
        text: "Jane Doe",
        status: "pending",
        inquiryId: inquiry!.id,
      },
      // her invoice e-mail, "Name <address>" form
      {
        kind: "invoice",
        toAddress: `Jane Doe <${PERSON}>`,
        subject: "Invoice",
        html: "x",
        text: "x",
        status: "sent",
        orderId: order!.id,
      },
      // not hers: a near miss and Bob's
      {
        kind: "invoice",
        toAddress: "notjane.doe@example.com",
        subject: "Other",
        html: "x",
        text: "x",
        status: "sent",
      },
      {
        kind: "visitor_confirmation",
        toAddress: "bob@example.com",
        subject: "Bob",
        html: "x",
        text: "x",
        status: "sent",
        inquiryId: other!.id,
      },
    ])
    .returning();
  return {
    inquiry: inquiry!,
    other: other!,
    order: order!,
    bobsOrder: bobsOrder!,
    invoice: invoice!,
    mails,
  };
}

export async function count(
  db: Database,
  table: typeof inquiries | typeof newsletterSubscriptions | typeof emailOutbox,
) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}
