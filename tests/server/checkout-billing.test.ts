import { eq, sql } from "drizzle-orm";
import type { ActionFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { FIELD_MESSAGES, MESSAGES } from "#app/lib/checkout.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import * as checkoutRoute from "#app/routes/courses/checkout.tsx";
import { config, loadConfig } from "#server/config.server.ts";
import { emailOutbox, orders } from "#server/db/schema.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { rememberOrder, rememberedOrderIds } from "#server/payments/buyer-orders.server.ts";
import { loadCheckout, loadSuccessPage, submitCheckout } from "#server/payments/checkout.server.ts";
import { BILLING, BILLING_FORM } from "#tests/support/checkout.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { freshIp } from "#tests/support/forms.ts";
import { insertCourse as insertCourseRow, type CourseValues } from "#tests/support/factories.ts";

/**
 * Checkout billing details, VAT and the buyer's view of the success page (decision 0015), on a real
 * database: what the checkout refuses stores nothing; what it takes is stored as typed (and
 * normalised); the amounts follow the seller's VAT terms; only the browser that placed an order
 * is shown its reference and summary.
 */

const database = useFreshDatabase();

const insertCourse = (values: CourseValues = {}) =>
  insertCourseRow({
    slug: "kyc-essentials",
    title: "KYC Essentials",
    price: "295.00",
    durationHours: 7,
    ...values,
  });

const buyerFields = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

async function orderCount() {
  const [row] = await database()
    .db.select({ n: sql<number>`count(*)::int` })
    .from(orders);
  return Number(row!.n);
}

async function outboxCount() {
  const [row] = await database()
    .db.select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox);
  return Number(row!.n);
}

async function orderRow(id: string) {
  const [row] = await database().db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

/** Runs `body` with the seller's VAT settings as `env` gives them, then puts them back. */
async function withSeller<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = structuredClone(config.seller);
  Object.assign(config.seller, loadConfig({ ...process.env, ...env }).seller);
  try {
    return await body();
  } finally {
    Object.assign(config.seller, saved);
  }
}

describe("billing details at the checkout", () => {
  it("bad input gets a field error and nothing is stored", async () => {
    const course = await insertCourse();
    const cases: [
      Record<string, string>,
      string,
      string,
      (typeof MESSAGES)[keyof typeof MESSAGES],
    ][] = [
      [{ addressLine1: " " }, "addressLine1", FIELD_MESSAGES.addressLine1, MESSAGES.missingBilling],
      [{ town: "" }, "town", FIELD_MESSAGES.town, MESSAGES.missingBilling],
      [{ postcode: "" }, "postcode", FIELD_MESSAGES.postcode, MESSAGES.missingBilling],
      [{ postcode: "12345" }, "postcode", FIELD_MESSAGES.invalidPostcode, MESSAGES.invalidPostcode],
      [
        { vatNumber: "GB12" },
        "vatNumber",
        FIELD_MESSAGES.invalidVatNumber,
        MESSAGES.invalidVatNumber,
      ],
      [{ acceptTerms: "" }, "acceptTerms", FIELD_MESSAGES.acceptTerms, MESSAGES.termsNotAccepted],
    ];
    for (const [override, field, fieldMessage, toast] of cases) {
      const outcome = await submitCheckout(
        course.slug,
        form({ intent: "invoice", ...buyerFields, ...BILLING_FORM, ...override }),
        freshIp(),
      );
      expect(outcome, field).toEqual({
        kind: "problem",
        status: 400,
        message: toast,
        fieldErrors: { [field]: fieldMessage },
      });
    }
    expect(await orderCount()).toBe(0);
    expect(await outboxCount()).toBe(0);

    // createOrder applies the same rules to whatever calls it.
    const refused = await createOrder({
      courseId: course.id,
      paymentMethod: "invoice",
      values: {
        buyer: { ...buyerFields, phone: "", company: "Analytical Engines Ltd" },
        billing: BILLING,
        termsAccepted: false,
        studentMode: "self",
        quantity: 1,
        students: [],
      },
    });
    expect(refused).toEqual({ ok: false, reason: "invalid", message: MESSAGES.termsNotAccepted });
    expect(await orderCount()).toBe(0);
  });

  it("an individual books without an organisation; a card order may leave the address out", async () => {
    const course = await insertCourse();
    const { company: _none, ...withoutCompany } = BILLING_FORM;
    const outcome = await submitCheckout(
      course.slug,
      form({ intent: "invoice", ...buyerFields, ...withoutCompany }),
      freshIp(),
    );
    expect(outcome.kind).toBe("invoice");
    if (outcome.kind !== "invoice") return;
    // Nothing like 'n/a' to print: the invoice is addressed to the buyer.
    expect(await orderRow(outcome.orderId)).toMatchObject({
      buyerCompany: null,
      billingOrganisation: null,
      billingAddressLine1: BILLING.addressLine1,
    });

    const noAddress = { ...BILLING, addressLine1: "", addressLine2: "", town: "", postcode: "" };
    const values = {
      buyer: { ...buyerFields, phone: "", company: "" },
      billing: noAddress,
      termsAccepted: true,
      studentMode: "self" as const,
      quantity: 1,
      students: [],
    };
    const card = await createOrder({ courseId: course.id, paymentMethod: "stripe", values });
    expect(card.ok).toBe(true);
    // An invoice request without an address is refused, and nothing is stored.
    const before = await orderCount();
    const invoice = await createOrder({ courseId: course.id, paymentMethod: "invoice", values });
    expect(invoice).toMatchObject({
      ok: false,
      reason: "invalid",
      message: MESSAGES.missingBilling,
    });
    expect(await orderCount()).toBe(before);
  });

  it("stores the billing address, PO and VAT numbers and when the terms were accepted", async () => {
    const course = await insertCourse();
    const before = Date.now();
    const outcome = await submitCheckout(
      course.slug,
      form({
        intent: "invoice",
        ...buyerFields,
        company: "Analytical Engines Ltd",
        addressLine1: "12 Babbage Street",
        addressLine2: "Floor 3",
        town: "London",
        postcode: "ec1a1bb",
        country: "UK",
        poNumber: "PO-2026-0042",
        vatNumber: "gb 123 4567 89",
        acceptTerms: "on",
      }),
      freshIp(),
    );
    expect(outcome.kind).toBe("invoice");
    if (outcome.kind !== "invoice") return;
    const row = await orderRow(outcome.orderId);
    expect(row).toMatchObject({
      buyerCompany: "Analytical Engines Ltd",
      billingOrganisation: "Analytical Engines Ltd",
      billingAddressLine1: "12 Babbage Street",
      billingAddressLine2: "Floor 3",
      billingTown: "London",
      billingPostcode: "EC1A 1BB",
      billingCountry: "United Kingdom",
      poNumber: "PO-2026-0042",
      buyerVatNumber: "GB123456789",
    });
    expect(row.termsAcceptedAt).toBeInstanceOf(Date);
    expect(row.termsAcceptedAt!.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(row.termsAcceptedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);

    // Abroad: the postcode is taken as typed; optional fields left empty are stored as null.
    const abroad = await submitCheckout(
      course.slug,
      form({
        intent: "invoice",
        ...buyerFields,
        email: "sean@example.ie",
        ...BILLING_FORM,
        country: "Ireland",
        postcode: "D02 X285",
      }),
      freshIp(),
    );
    expect(abroad.kind).toBe("invoice");
    if (abroad.kind !== "invoice") return;
    expect(await orderRow(abroad.orderId)).toMatchObject({
      billingCountry: "Ireland",
      billingPostcode: "D02 X285",
      billingAddressLine2: null,
      poNumber: null,
      buyerVatNumber: null,
    });
  });
});

describe("VAT", () => {
  it("without a VAT number no VAT is charged: total = price × places", async () => {
    const course = await insertCourse();
    expect(await loadCheckout(course.slug)).toMatchObject({
      vat: { rateBasisPoints: 0, pricesIncludeVat: false },
    });
    const outcome = await submitCheckout(
      course.slug,
      form({ intent: "invoice", ...buyerFields, ...BILLING_FORM }),
      freshIp(),
    );
    if (outcome.kind !== "invoice") throw new Error(outcome.kind);
    expect(await orderRow(outcome.orderId)).toMatchObject({
      netAmountCents: 29500,
      vatAmountCents: 0,
      totalAmountCents: 29500,
      vatRateBasisPoints: 0,
    });
  });

  it("a VAT-registered seller, prices excluding VAT: 20 % is added on top", async () => {
    await withSeller({ SELLER_VAT_NUMBER: "GB123456789" }, async () => {
      const course = await insertCourse({ price: "19.99" });
      expect(await loadCheckout(course.slug)).toMatchObject({
        vat: { rateBasisPoints: 2000, pricesIncludeVat: false },
      });
      const outcome = await submitCheckout(
        course.slug,
        form({
          intent: "invoice",
          ...buyerFields,
          ...BILLING_FORM,
          studentMode: "others",
          quantity: "3",
          ...students(3),
        }),
        freshIp(),
      );
      if (outcome.kind !== "invoice") throw new Error(outcome.kind);
      // 3 × £19.99 = £59.97 net; VAT 1199.4p → 1199p; total £71.96.
      expect(await orderRow(outcome.orderId)).toMatchObject({
        unitPriceCents: 1999,
        quantity: 3,
        netAmountCents: 5997,
        vatAmountCents: 1199,
        totalAmountCents: 7196,
        vatRateBasisPoints: 2000,
        pricesIncludeVat: false,
      });
    });
  });

  it("a VAT-registered seller, prices including VAT: the total is the price, VAT is 1/6 of it", async () => {
    await withSeller({ SELLER_VAT_NUMBER: "GB123456789", PRICES_INCLUDE_VAT: "true" }, async () => {
      const course = await insertCourse({ price: "295.00" });
      expect(await loadCheckout(course.slug)).toMatchObject({
        vat: { rateBasisPoints: 2000, pricesIncludeVat: true },
      });
      const outcome = await submitCheckout(
        course.slug,
        form({ intent: "invoice", ...buyerFields, ...BILLING_FORM }),
        freshIp(),
      );
      if (outcome.kind !== "invoice") throw new Error(outcome.kind);
      // £295.00 / 6 = 4916.67p → 4917p VAT; net 24583p.
      expect(await orderRow(outcome.orderId)).toMatchObject({
        netAmountCents: 24583,
        vatAmountCents: 4917,
        totalAmountCents: 29500,
        vatRateBasisPoints: 2000,
        pricesIncludeVat: true,
      });
    });
  });
});

function students(n: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    fields[`students[${i}].firstName`] = `Student${i + 1}`;
    fields[`students[${i}].lastName`] = "Smith";
    fields[`students[${i}].email`] = `student${i + 1}@example.com`;
  }
  return fields;
}

/** Posts the checkout page as the browser does (the route's action), returning its cookie. */
async function postCheckout(
  slug: string,
  fields: Record<string, string>,
  cookie = "",
): Promise<{ location: string | null; setCookie: string }> {
  const request = new Request(`http://localhost/courses/${slug}/checkout`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  try {
    await checkoutRoute.action({
      request,
      params: { slug },
      context: { clientIp: freshIp() },
    } as unknown as ActionFunctionArgs as Parameters<typeof checkoutRoute.action>[0]);
  } catch (thrown) {
    // Without JavaScript the answer is a 303 redirect.
    if (thrown instanceof Response) {
      return {
        location: thrown.headers.get("location"),
        setCookie: thrown.headers.get("set-cookie") ?? "",
      };
    }
    throw thrown;
  }
  throw new Error("the checkout answered without redirecting");
}

function successRequest(slug: string, cookie = ""): Request {
  return new Request(`http://localhost/courses/${slug}/success?invoice=true`, {
    headers: cookie ? { cookie } : {},
  });
}

describe("the success page shows the order only to the buyer who placed it", () => {
  it("the checkout sets a signed, HttpOnly, SameSite=Lax cookie naming the order", async () => {
    const course = await insertCourse();
    const { location, setCookie } = await postCheckout(course.slug, {
      intent: "invoice",
      ...buyerFields,
      ...BILLING_FORM,
    });
    expect(location).toBe(`/courses/${course.slug}/success?invoice=true#main`);
    expect(setCookie).toMatch(/^nw_orders=/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\/courses\//i);
    const cookie = setCookie.split(";")[0]!;

    const [order] = await database().db.select().from(orders);
    const mine = await loadSuccessPage(course.slug, successRequest(course.slug, cookie));
    expect(mine).toEqual({
      kind: "invoice",
      course: { slug: course.slug, title: course.title },
      order: {
        reference: orderReference(order!.id),
        courseTitle: "KYC Essentials",
        places: 1,
        totalCents: 29500,
        vatCents: 0,
      },
    });

    // Anyone else: the page without the order.
    const stranger = await loadSuccessPage(course.slug, successRequest(course.slug));
    expect(stranger).toMatchObject({ kind: "invoice", order: null });
    // A cookie that was not signed here names nothing.
    const value = Buffer.from(JSON.stringify([order!.id])).toString("base64");
    for (const forged of [`nw_orders=${value}`, `nw_orders=${cookie.slice(10, -4)}AAAA`]) {
      expect(await loadSuccessPage(course.slug, successRequest(course.slug, forged))).toMatchObject(
        {
          order: null,
        },
      );
    }
  });

  it("several orders: the newest for this course is shown; another course's is not", async () => {
    const first = await insertCourse();
    const other = await insertCourse({ slug: "osint", title: "OSINT" });
    const one = await postCheckout(first.slug, {
      intent: "invoice",
      ...buyerFields,
      ...BILLING_FORM,
    });
    let cookie = one.setCookie.split(";")[0]!;
    const two = await postCheckout(
      first.slug,
      {
        intent: "invoice",
        ...buyerFields,
        ...BILLING_FORM,
        studentMode: "others",
        quantity: "2",
        ...students(2),
      },
      cookie,
    );
    cookie = two.setCookie.split(";")[0]!;
    const page = await loadSuccessPage(first.slug, successRequest(first.slug, cookie));
    expect(page).toMatchObject({ kind: "invoice", order: { places: 2, totalCents: 59000 } });
    expect(await loadSuccessPage(other.slug, successRequest(other.slug, cookie))).toMatchObject({
      kind: "invoice",
      order: null,
    });
  });

  it("the cookie keeps the ten most recent orders", async () => {
    const ids = Array.from(
      { length: 12 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    );
    let cookie = "";
    for (const id of ids) {
      const header = await rememberOrder(
        new Request("http://localhost/", { headers: cookie ? { cookie } : {} }),
        id,
      );
      cookie = header.split(";")[0]!;
    }
    const kept = await rememberedOrderIds(
      new Request("http://localhost/", { headers: { cookie } }),
    );
    expect(kept).toEqual(ids.slice(2).reverse());
  });
});
