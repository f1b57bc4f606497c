import { describe, expect, it, vi } from "vitest";
import {
  VAT_CASES,
  VAT_TREATMENT_WORDING,
  buyerKind,
  vatCase,
} from "#app/lib/orders/place-of-supply.ts";
import { MOVE_MESSAGES } from "#app/lib/orders/moves.ts";
import { BILLING } from "#tests/support/checkout.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { moveOrder, moveTargets } from "#server/orders/moves.server.ts";
import { vatFor } from "#server/orders/pricing.server.ts";
import { db } from "#server/db/client.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { onlyDocument } from "#tests/support/invoices.ts";
import { ADMIN, insertCourse, orderRow } from "#tests/support/orders.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * VAT by place of supply, case by case, on a real database (PGlite, and PostgreSQL when
 * DATABASE_URL is set): the table's cases; orders placed by a UK business, a UK consumer, an EU
 * business with its VAT number, a US business with its tax number and a buyer abroad on a UK
 * classroom date; the invoice's words; and a move that would change the VAT refused. The seller
 * is VAT-registered at 20%, prices excluding VAT.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

const DAY = 24 * 60 * 60 * 1000;

describe("the place-of-supply table", () => {
  it("reads the buyer from the billing country and the number given", () => {
    expect(buyerKind({ country: "United Kingdom", vatNumber: "GB123456789" })).toBe("uk");
    expect(buyerKind({ country: "United Kingdom", vatNumber: "DE123456789" })).toBe("uk");
    expect(buyerKind({ country: "Germany", vatNumber: "DE 123 456 789" })).toBe("eu_business");
    expect(buyerKind({ country: "Greece", vatNumber: "EL123456789" })).toBe("eu_business");
    expect(buyerKind({ country: "United States", vatNumber: "US12-3456789" })).toBe(
      "business_abroad",
    );
    expect(buyerKind({ country: "Switzerland", vatNumber: "CHE-123.456.789" })).toBe(
      "business_abroad",
    );
    expect(buyerKind({ country: "France", vatNumber: "" })).toBe("consumer_abroad");
    // A UK number from abroad is a UK business all the same.
    expect(buyerKind({ country: "Ireland", vatNumber: "GB123456789" })).toBe("uk");
  });

  it("decides each case by the first row that matches", () => {
    const cases: [Parameters<typeof vatCase>[0], Parameters<typeof vatCase>[1], string][] = [
      ["classroom", "eu_business", "uk_vat"],
      ["classroom", "business_abroad", "uk_vat"],
      ["live_online", "uk", "uk_vat"],
      ["live_online", "eu_business", "reverse_charge"],
      ["on_demand", "eu_business", "reverse_charge"],
      ["live_online", "business_abroad", "outside_scope"],
      ["on_demand", "business_abroad", "outside_scope"],
      ["on_demand", "consumer_abroad", "uk_vat"],
    ];
    for (const [supply, buyer, treatment] of cases) {
      expect(vatCase(supply, buyer).treatment, `${supply} to ${buyer}`).toBe(treatment);
    }
    expect(VAT_CASES.at(-1)).toMatchObject({ supply: "any", buyer: "any", treatment: "uk_vat" });
  });

  it("charges none to anyone when the seller is not VAT-registered; takes VAT out of an inclusive price", () => {
    const abroad = { country: "Germany", vatNumber: "DE123456789" };
    expect(
      vatFor("on_demand", abroad, 12_000, { rateBasisPoints: 0, pricesIncludeVat: false }),
    ).toMatchObject({
      treatment: "uk_vat",
      unitPriceCents: 12_000,
    });
    expect(
      vatFor("on_demand", abroad, 12_000, { rateBasisPoints: 2000, pricesIncludeVat: true }),
    ).toEqual({
      treatment: "reverse_charge",
      unitPriceCents: 10_000,
      terms: { rateBasisPoints: 0, pricesIncludeVat: false },
    });
  });
});

async function courseWithDates() {
  const course = await insertCourse({ price: "500.00" });
  const classroom = await insertCourseDate(course.id, {
    startsAt: new Date(Date.now() + 30 * DAY),
  });
  const online = (days: number) =>
    insertCourseDate(course.id, {
      startsAt: new Date(Date.now() + days * DAY),
      format: "online",
      venueName: null,
      venueTown: null,
      venueAddress: null,
      joiningDetails: `https://meet.example.com/${days}`,
    });
  return { course, classroom, online: await online(40), online2: await online(50) };
}

async function book(
  courseId: string,
  courseDateId: string,
  billing: { country: string; vatNumber: string },
  email: string,
) {
  const created = await createOrder({
    courseId,
    courseDateId,
    paymentMethod: "invoice",
    values: {
      buyer: { firstName: "Ada", lastName: "Buyer", email, phone: "", company: "Buyer GmbH" },
      studentMode: "self",
      billing: { ...BILLING, ...billing },
      termsAccepted: true,
      quantity: 1,
      students: [],
    },
  });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return orderRow(created.order.id);
}

describe("orders placed by place of supply", () => {
  it("UK business, UK consumer, EU business, US business and a buyer abroad in a UK classroom", async () => {
    const { course, classroom, online } = await courseWithDates();
    const ukBusiness = await book(
      course.id,
      online.id,
      { country: "United Kingdom", vatNumber: "GB123456789" },
      "uk-b@example.com",
    );
    const ukConsumer = await book(
      course.id,
      online.id,
      { country: "United Kingdom", vatNumber: "" },
      "uk-c@example.com",
    );
    const euBusiness = await book(
      course.id,
      online.id,
      { country: "Germany", vatNumber: "DE123456789" },
      "de@example.com",
    );
    const usBusiness = await book(
      course.id,
      online.id,
      { country: "United States", vatNumber: "US123456789" },
      "us@example.com",
    );
    const inClassroom = await book(
      course.id,
      classroom.id,
      { country: "Germany", vatNumber: "DE123456789" },
      "de-room@example.com",
    );

    for (const uk of [ukBusiness, ukConsumer, inClassroom]) {
      expect(uk).toMatchObject({
        vatTreatment: "uk_vat",
        netAmountCents: 50_000,
        vatAmountCents: 10_000,
        totalAmountCents: 60_000,
        vatRateBasisPoints: 2000,
      });
    }
    expect(euBusiness).toMatchObject({
      vatTreatment: "reverse_charge",
      netAmountCents: 50_000,
      vatAmountCents: 0,
      totalAmountCents: 50_000,
      vatRateBasisPoints: 0,
    });
    expect(usBusiness).toMatchObject({
      vatTreatment: "outside_scope",
      vatAmountCents: 0,
      totalAmountCents: 50_000,
    });

    // The invoice says why no VAT is charged, and names the customer's VAT number.
    await changeOrderStatusByAdmin(euBusiness.id, "invoiced", ADMIN);
    const invoice = (await onlyDocument(euBusiness.id))!;
    expect((invoice.snapshot as DocumentSnapshot).vatNote).toBe(
      VAT_TREATMENT_WORDING.reverse_charge,
    );
    const text = (await pdfText((await documentPdf(invoice.id))!.pdf)).replace(/\s+/g, " ");
    expect(text).toContain("Reverse charge: no UK VAT is charged.");
    expect(text).toContain("DE123456789");
    await changeOrderStatusByAdmin(usBusiness.id, "invoiced", ADMIN);
    const usText = (
      await pdfText((await documentPdf((await onlyDocument(usBusiness.id))!.id))!.pdf)
    ).replace(/\s+/g, " ");
    expect(usText).toContain("Outside the scope of UK VAT");
    await changeOrderStatusByAdmin(ukBusiness.id, "invoiced", ADMIN);
    expect(((await onlyDocument(ukBusiness.id))!.snapshot as DocumentSnapshot).vatNote).toBeNull();
  });

  it("a move that would change how VAT was decided is refused, and its date not offered", async () => {
    const { course, classroom, online, online2 } = await courseWithDates();
    const euBusiness = await book(
      course.id,
      online.id,
      { country: "Germany", vatNumber: "DE123456789" },
      "de-move@example.com",
    );
    const targets = await moveTargets(db(), euBusiness);
    expect(targets.map((t) => t.id)).toEqual([online2.id]);
    const refused = await moveOrder(ADMIN, euBusiness.id, {
      toDateId: classroom.id,
      places: [1],
      price: "date",
    });
    expect(refused).toMatchObject({ ok: false, message: MOVE_MESSAGES.vatChanges });
    expect((await orderRow(euBusiness.id)).courseDateId).toBe(online.id);
    // Online to online is taxed alike: it moves.
    expect(
      (await moveOrder(ADMIN, euBusiness.id, { toDateId: online2.id, places: [1], price: "date" }))
        .ok,
    ).toBe(true);
  });
});
