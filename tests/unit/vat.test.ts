import { describe, expect, it } from "vitest";
import { formatVatRate, lineAmounts, vatLabel } from "#app/lib/orders/vat.ts";
import { creditAmounts } from "#server/invoices/documents.server.ts";
import { documentFilename, winAnsiText } from "#server/invoices/pdf-text.server.ts";

/** VAT in whole pence (decision 0015): per line, halves rounded up, net + VAT = total always. */

const EXCL = { rateBasisPoints: 2000, pricesIncludeVat: false };
const INCL = { rateBasisPoints: 2000, pricesIncludeVat: true };

describe("lineAmounts", () => {
  it("prices excluding VAT: VAT is added on top of the line", () => {
    // 3 places at £1,450.00
    expect(lineAmounts(435_000, EXCL)).toEqual({
      netCents: 435_000,
      vatCents: 87_000,
      totalCents: 522_000,
    });
    expect(lineAmounts(1999, EXCL)).toEqual({ netCents: 1999, vatCents: 400, totalCents: 2399 });
  });

  it("prices including VAT: the VAT fraction (1/6 at 20 %) of the line", () => {
    expect(lineAmounts(522_000, INCL)).toEqual({
      netCents: 435_000,
      vatCents: 87_000,
      totalCents: 522_000,
    });
    // £100.00 incl. VAT: VAT 1666.67p → 1667p
    expect(lineAmounts(10_000, INCL)).toEqual({
      netCents: 8333,
      vatCents: 1667,
      totalCents: 10_000,
    });
  });

  it("halves round up, anything less rounds down", () => {
    // 20 % of 2.5p = 0.5p → 1p; 20 % of 2p = 0.4p → 0p; 20 % of 3p = 0.6p → 1p
    expect(lineAmounts(5, { rateBasisPoints: 1000, pricesIncludeVat: false }).vatCents).toBe(1);
    expect(lineAmounts(2, EXCL).vatCents).toBe(0);
    expect(lineAmounts(3, EXCL).vatCents).toBe(1);
    // 17.5 % of 10p = 1.75p → 2p; of 2p = 0.35p → 0p
    const r175 = { rateBasisPoints: 1750, pricesIncludeVat: false };
    expect(lineAmounts(10, r175).vatCents).toBe(2);
    expect(lineAmounts(2, r175).vatCents).toBe(0);
    // incl.: 7p × 2000/12000 = 1.1666p → 1p; 9p → 1.5p → 2p
    expect(lineAmounts(7, INCL).vatCents).toBe(1);
    expect(lineAmounts(9, INCL).vatCents).toBe(2);
  });

  it("is worked out once per line, not per unit", () => {
    // 3 × 33p = 99p: VAT 19.8p → 20p, whereas 3 × round(6.6p) = 21p.
    expect(lineAmounts(3 * 33, EXCL).vatCents).toBe(20);
    expect(3 * lineAmounts(33, EXCL).vatCents).toBe(21);
  });

  it("no VAT when the seller charges none; net + VAT = total for every amount", () => {
    expect(lineAmounts(12_345, { rateBasisPoints: 0, pricesIncludeVat: true })).toEqual({
      netCents: 12_345,
      vatCents: 0,
      totalCents: 12_345,
    });
    for (const terms of [EXCL, INCL, { rateBasisPoints: 500, pricesIncludeVat: true }]) {
      for (let cents = 0; cents <= 2_000; cents += 7) {
        const a = lineAmounts(cents, terms);
        expect(a.netCents + a.vatCents).toBe(a.totalCents);
        expect(a.vatCents).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(a.vatCents)).toBe(true);
      }
    }
  });

  it("rates and labels", () => {
    expect(formatVatRate(2000)).toBe("20%");
    expect(formatVatRate(1750)).toBe("17.5%");
    expect(formatVatRate(500)).toBe("5%");
    expect(vatLabel(EXCL)).toBe("excl. VAT");
    expect(vatLabel(INCL)).toBe("incl. VAT");
    expect(vatLabel({ rateBasisPoints: 0, pricesIncludeVat: false })).toBe("");
  });
});

describe("creditAmounts", () => {
  const invoice = { vatAmountCents: 87_000, totalAmountCents: 522_000 };

  it("crediting the whole total gives back exactly its VAT", () => {
    expect(creditAmounts(522_000, invoice)).toEqual({
      netCents: 435_000,
      vatCents: 87_000,
      totalCents: 522_000,
    });
  });

  it("a part carries VAT in proportion, halves up", () => {
    // £100.00 of a 20 %-VAT total: VAT 1666.67p → 1667p
    expect(creditAmounts(10_000, invoice)).toEqual({
      netCents: 8333,
      vatCents: 1667,
      totalCents: 10_000,
    });
    // 3p of a 6p total with 1p VAT: 0.5p → 1p
    expect(creditAmounts(3, { vatAmountCents: 1, totalAmountCents: 6 }).vatCents).toBe(1);
  });

  it("the credit that takes the rest takes the rest of the VAT: parts add up to the penny", () => {
    // £300.00 with £50.00 VAT refunded in three £100.00 parts: 1667p, 1667p, then 1666p.
    const document = { vatAmountCents: 5_000, totalAmountCents: 30_000 };
    const first = creditAmounts(10_000, document);
    const second = creditAmounts(10_000, document, {
      totalCents: 10_000,
      vatCents: first.vatCents,
    });
    const last = creditAmounts(10_000, document, {
      totalCents: 20_000,
      vatCents: first.vatCents + second.vatCents,
    });
    expect([first.vatCents, second.vatCents, last.vatCents]).toEqual([1667, 1667, 1666]);
    expect(first.vatCents + second.vatCents + last.vatCents).toBe(5_000);
    expect(last).toEqual({ netCents: 8_334, vatCents: 1_666, totalCents: 10_000 });
    // 3p then 3p of a 6p total with 1p VAT: the first rounds up to 1p, so the second has none.
    const tiny = { vatAmountCents: 1, totalAmountCents: 6 };
    expect(creditAmounts(3, tiny, { totalCents: 3, vatCents: 1 }).vatCents).toBe(0);
  });

  it("no VAT on the credit when the document had none", () => {
    expect(creditAmounts(5_000, { vatAmountCents: 0, totalAmountCents: 9_000 })).toEqual({
      netCents: 5_000,
      vatCents: 0,
      totalCents: 5_000,
    });
  });
});

describe("what a PDF can print", () => {
  it("keeps WinAnsi (pound sign, accents, typographic quotes), replaces the rest", () => {
    expect(winAnsiText("£1,450.00 – Zoë’s “Café” €")).toBe("£1,450.00 – Zoë’s “Café” €");
    expect(winAnsiText("Łukasz Żółć")).toBe("Lukasz Zólc");
    expect(winAnsiText("李 Ivanov\nline")).toBe("? Ivanov line");
  });

  it("file names are the document number", () => {
    expect(documentFilename("INV-2026-0001")).toBe("INV-2026-0001.pdf");
    expect(documentFilename("CN-2026-0012")).toBe("CN-2026-0012.pdf");
  });
});
