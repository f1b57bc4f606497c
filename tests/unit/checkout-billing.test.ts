import { describe, expect, it } from "vitest";
import {
  DEFAULT_COUNTRY,
  FIELD_MESSAGES,
  MESSAGES,
  checkCheckout,
  readCheckoutForm,
} from "#app/lib/checkout.ts";
import { formatUkPostcode, isValidVatNumber, normaliseVatNumber } from "#app/lib/uk-billing.ts";
import { parseForm } from "#app/lib/forms.ts";
import { checkoutFormSchema } from "#app/lib/checkout.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";

/** The checkout's billing rules (decision 0015), shared by the browser and the server. */

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

const complete: Record<string, string> = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  ...BILLING_FORM,
};

function check(fields: Record<string, string>) {
  return checkCheckout(readCheckoutForm(form(fields)).values);
}

describe("billing details", () => {
  it("a complete form passes, and is read as typed", () => {
    const { values } = readCheckoutForm(
      form({
        ...complete,
        addressLine2: " Floor 3 ",
        poNumber: " PO-2026-0042 ",
        vatNumber: "gb 123 4567 89",
      }),
    );
    expect(checkCheckout(values)).toBeNull();
    expect(values.buyer.company).toBe("Analytical Engines Ltd");
    expect(values.billing).toEqual({
      addressLine1: "12 Babbage Street",
      addressLine2: "Floor 3",
      town: "London",
      postcode: "EC1A 1BB",
      country: "United Kingdom",
      poNumber: "PO-2026-0042",
      vatNumber: "GB123456789",
    });
    expect(values.termsAccepted).toBe(true);
  });

  it("an invoice needs address line 1, town and postcode, each marked; the organisation is optional", () => {
    for (const name of ["addressLine1", "town", "postcode"] as const) {
      const problem = check({ ...complete, [name]: "   " });
      expect(problem?.toast).toEqual(MESSAGES.missingBilling);
      expect(problem?.fieldErrors).toEqual({ [name]: FIELD_MESSAGES[name] });
    }
    // An individual: the invoice is addressed to them.
    expect(check({ ...complete, company: "" })).toBeNull();
  });

  it("a card payment may leave the address out, but not half of it", () => {
    const withoutAddress = {
      ...complete,
      company: "",
      addressLine1: "",
      addressLine2: "",
      town: "",
      postcode: "",
    };
    const { values } = readCheckoutForm(form(withoutAddress));
    expect(checkCheckout(values, "card")).toBeNull();
    expect(checkCheckout(values, "invoice")?.fieldErrors).toEqual({
      addressLine1: FIELD_MESSAGES.addressLine1,
      town: FIELD_MESSAGES.town,
      postcode: FIELD_MESSAGES.postcode,
    });
    const half = readCheckoutForm(form({ ...withoutAddress, addressLine1: "12 Babbage Street" }));
    expect(checkCheckout(half.values, "card")?.fieldErrors).toEqual({
      town: FIELD_MESSAGES.town,
      postcode: FIELD_MESSAGES.postcode,
    });
  });

  it("address line 2, PO number and VAT number are optional", () => {
    const { values } = readCheckoutForm(form(complete));
    expect(values.billing.addressLine2).toBe("");
    expect(values.billing.poNumber).toBe("");
    expect(values.billing.vatNumber).toBe("");
    expect(checkCheckout(values)).toBeNull();
  });

  it("the country defaults to the United Kingdom; its other names are written one way", () => {
    const { country: _omitted, ...withoutCountry } = complete;
    expect(readCheckoutForm(form(withoutCountry)).values.billing.country).toBe(DEFAULT_COUNTRY);
    for (const typed of ["UK", "gb", " great  britain ", "Scotland", "united kingdom"]) {
      expect(readCheckoutForm(form({ ...complete, country: typed })).values.billing.country).toBe(
        "United Kingdom",
      );
    }
    expect(readCheckoutForm(form({ ...complete, country: "Ireland" })).values.billing.country).toBe(
      "Ireland",
    );
  });

  it("UK postcodes are checked and written the Royal Mail way", () => {
    expect(formatUkPostcode("sw1a1aa")).toBe("SW1A 1AA");
    expect(formatUkPostcode("M1 1AE")).toBe("M1 1AE");
    expect(formatUkPostcode("b33 8th")).toBe("B33 8TH");
    expect(formatUkPostcode("CR2 6XH")).toBe("CR2 6XH");
    expect(formatUkPostcode("DN55 1PT")).toBe("DN55 1PT");
    expect(formatUkPostcode("GIR 0AA")).toBe("GIR 0AA");
    for (const bad of ["12345", "SW1A", "SW1A 1A", "1AA SW1", "EC1A-1BB", "ABC 123", "D02 X285"]) {
      expect(formatUkPostcode(bad), bad).toBeNull();
    }
    const { values } = readCheckoutForm(form({ ...complete, postcode: "ec1a1bb" }));
    expect(values.billing.postcode).toBe("EC1A 1BB");

    const problem = check({ ...complete, postcode: "12345" });
    expect(problem?.toast).toEqual(MESSAGES.invalidPostcode);
    expect(problem?.fieldErrors).toEqual({ postcode: FIELD_MESSAGES.invalidPostcode });
  });

  it("outside the United Kingdom the postcode is free text", () => {
    for (const [country, postcode] of [
      ["Ireland", "D02 X285"],
      ["Germany", "10115"],
      ["United States", "94103-1234"],
    ] as const) {
      const { values } = readCheckoutForm(form({ ...complete, country, postcode }));
      expect(values.billing.postcode).toBe(postcode);
      expect(checkCheckout(values)).toBeNull();
    }
    // Still required.
    expect(check({ ...complete, country: "Ireland", postcode: "" })?.fieldErrors).toEqual({
      postcode: FIELD_MESSAGES.postcode,
    });
  });

  it("a buyer's VAT number, when given, must look like one", () => {
    expect(normaliseVatNumber("123 4567 89")).toBe("GB123456789");
    expect(normaliseVatNumber("ie 6388047v")).toBe("IE6388047V");
    expect(isValidVatNumber("GB123456789")).toBe(true);
    expect(isValidVatNumber("GB123456789012")).toBe(true);
    expect(isValidVatNumber("GBGD001")).toBe(true);
    expect(isValidVatNumber("XI123456789")).toBe(true);
    expect(isValidVatNumber("IE6388047V")).toBe(true);
    expect(isValidVatNumber("DE123456789")).toBe(true);
    for (const bad of ["GB12345", "GB1234567890", "12", "not a vat number", "G1234"]) {
      expect(isValidVatNumber(normaliseVatNumber(bad)), bad).toBe(false);
    }
    const problem = check({ ...complete, vatNumber: "GB12345" });
    expect(problem?.toast).toEqual(MESSAGES.invalidVatNumber);
    expect(problem?.fieldErrors).toEqual({ vatNumber: FIELD_MESSAGES.invalidVatNumber });
  });

  it("the terms must be accepted (only a ticked box counts)", () => {
    const { acceptTerms: _ticked, ...unticked } = complete;
    for (const fields of [unticked, { ...unticked, acceptTerms: "false" }]) {
      const problem = check(fields);
      expect(problem?.toast).toEqual(MESSAGES.termsNotAccepted);
      expect(problem?.fieldErrors).toEqual({ acceptTerms: FIELD_MESSAGES.acceptTerms });
    }
  });

  it("every problem is marked at once; the toast is the first one the visitor reads", () => {
    const problem = check({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      postcode: "nope",
      vatNumber: "X",
    });
    expect(problem?.toast).toEqual(MESSAGES.missingBilling);
    expect(Object.keys(problem!.fieldErrors).sort()).toEqual(
      ["acceptTerms", "addressLine1", "postcode", "town", "vatNumber"].sort(),
    );
    expect(problem!.fieldErrors.postcode).toBe(FIELD_MESSAGES.invalidPostcode);
  });

  it("odd posts never make reading fail; long values are cut", () => {
    const parsed = parseForm(
      form({ ...complete, addressLine1: "x".repeat(5000), "poNumber[0]": "a" }),
      checkoutFormSchema,
    );
    expect(parsed.ok).toBe(true);
    const { values } = readCheckoutForm(
      form({ ...complete, addressLine1: `12\nBabbage\tStreet${"x".repeat(500)}` }),
    );
    expect(values.billing.addressLine1.startsWith("12 Babbage Street")).toBe(true);
    expect(values.billing.addressLine1.length).toBeLessThanOrEqual(200);
  });
});

describe("seller details on public pages", () => {
  it("show each detail only when set; a registered office only for a company", async () => {
    const { sellerFacts } = await import("#app/lib/orders/seller.ts");
    const bare = {
      legalName: "NightWatch",
      addressLines: ["London", "United Kingdom"],
      companyNumber: null,
      vatNumber: null,
      icoNumber: null,
    };
    expect(sellerFacts(bare)).toEqual([
      { label: null, value: "NightWatch" },
      { label: "Address", value: "London, United Kingdom" },
    ]);
    expect(
      sellerFacts({
        ...bare,
        legalName: "NightWatch Intelligence Ltd",
        companyNumber: "01234567",
        vatNumber: "GB123456789",
        icoNumber: "ZA123456",
      }).map((f) => f.label),
    ).toEqual([
      null,
      "Registered office",
      "Company number",
      "VAT number",
      "ICO registration number",
    ]);
  });
});
