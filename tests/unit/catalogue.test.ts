import { describe, expect, it } from "vitest";
import {
  catalogueFilterValue,
  cataloguePartnerNames,
  filterCatalogue,
  parseCatalogueFilter,
  partnerBadge,
  sortCatalogue,
} from "#server/catalogue/courses.server.ts";
import { partnerBadgeLabel } from "#app/lib/catalogue/catalogue.ts";
import { formatCoursePrice, formatDuration, formatPence, formatPrice } from "#app/lib/format.ts";

const course = (title: string, partnerName: string | null = null) => ({ title, partnerName });

/** Newest first, as the database returns them. */
const NEWEST_FIRST = [
  course("Zero Trust Basics"),
  course("Cifas Internal Fraud Awareness", "Cifas"),
  course("advanced OSINT"),
  course("Certificate in Interviewing", "Harbourside Academy"),
  course("Émigré Fraud Cases"),
  course("Banking Fraud", "Cifas"),
];

describe("parseCatalogueFilter (?partner=)", () => {
  it.each([
    [null, { kind: "all" }],
    [undefined, { kind: "all" }],
    ["", { kind: "all" }],
    ["all", { kind: "all" }],
    ["ALL", { kind: "all" }],
    ["exclusive", { kind: "exclusive" }],
    [" Exclusive ", { kind: "exclusive" }],
    ["Cifas", { kind: "partner", name: "Cifas" }],
    ["  Harbourside Academy ", { kind: "partner", name: "Harbourside Academy" }],
  ])("%j → %j", (value, expected) => {
    expect(parseCatalogueFilter(value)).toEqual(expected);
  });

  it("round-trips through the query value (all has none)", () => {
    expect(catalogueFilterValue({ kind: "all" })).toBeNull();
    expect(catalogueFilterValue({ kind: "exclusive" })).toBe("exclusive");
    expect(catalogueFilterValue({ kind: "partner", name: "Cifas" })).toBe("Cifas");
  });
});

describe("filterCatalogue", () => {
  it("all keeps every course in its order", () => {
    expect(filterCatalogue(NEWEST_FIRST, { kind: "all" })).toEqual(NEWEST_FIRST);
  });

  it("exclusive keeps only courses without a partner", () => {
    expect(filterCatalogue(NEWEST_FIRST, { kind: "exclusive" }).map((c) => c.title)).toEqual([
      "Zero Trust Basics",
      "advanced OSINT",
      "Émigré Fraud Cases",
    ]);
  });

  it("a partner name keeps that partner's courses, whatever the letter case", () => {
    const cifas = ["Cifas Internal Fraud Awareness", "Banking Fraud"];
    expect(
      filterCatalogue(NEWEST_FIRST, { kind: "partner", name: "Cifas" }).map((c) => c.title),
    ).toEqual(cifas);
    expect(
      filterCatalogue(NEWEST_FIRST, { kind: "partner", name: "CIFAS" }).map((c) => c.title),
    ).toEqual(cifas);
  });

  it("an unknown partner keeps nothing (the empty state)", () => {
    expect(filterCatalogue(NEWEST_FIRST, { kind: "partner", name: "Nobody Ltd" })).toEqual([]);
  });

  it("does not modify its input", () => {
    const input = [...NEWEST_FIRST];
    filterCatalogue(input, { kind: "exclusive" });
    expect(input).toEqual(NEWEST_FIRST);
  });
});

describe("sortCatalogue", () => {
  it("sorts by title with en-GB collation (case and accents do not push a title to the end)", () => {
    expect(sortCatalogue(NEWEST_FIRST, { kind: "all" }).map((c) => c.title)).toEqual([
      "advanced OSINT",
      "Banking Fraud",
      "Certificate in Interviewing",
      "Cifas Internal Fraud Awareness",
      "Émigré Fraud Cases",
      "Zero Trust Basics",
    ]);
  });

  it("in the exclusive filter puts courses without a partner first, each group by title", () => {
    expect(sortCatalogue(NEWEST_FIRST, { kind: "exclusive" }).map((c) => c.title)).toEqual([
      "advanced OSINT",
      "Émigré Fraud Cases",
      "Zero Trust Basics",
      "Banking Fraud",
      "Certificate in Interviewing",
      "Cifas Internal Fraud Awareness",
    ]);
  });

  it("keeps equal titles in the order they came (newest first)", () => {
    const a = { title: "Same", partnerName: null, id: "newer" };
    const b = { title: "Same", partnerName: null, id: "older" };
    expect(sortCatalogue([a, b], { kind: "all" }).map((c) => c.id)).toEqual(["newer", "older"]);
  });

  it("filter then sort gives the catalogue for a partner", () => {
    const filter = { kind: "partner", name: "cifas" } as const;
    expect(
      sortCatalogue(filterCatalogue(NEWEST_FIRST, filter), filter).map((c) => c.title),
    ).toEqual(["Banking Fraud", "Cifas Internal Fraud Awareness"]);
  });
});

describe("cataloguePartnerNames (the radio options)", () => {
  it("lists each partner once, alphabetically, skipping partner-less courses", () => {
    expect(
      cataloguePartnerNames([
        ...NEWEST_FIRST,
        course("Another", "cifas"),
        course("Third", "Academy of Fraud"),
      ]),
    ).toEqual(["Academy of Fraud", "Cifas", "Harbourside Academy"]);
  });

  it("is empty when no course has a partner", () => {
    expect(cataloguePartnerNames([course("A"), course("B")])).toEqual([]);
  });
});

describe("partnerBadge", () => {
  it.each(["Cifas", "CIFAS", "cifas", "The CiFaS Academy", "UK Cifas Training"])(
    "%s gets the CIFAS partnership badge",
    (name) => {
      expect(partnerBadge(name)).toEqual({ kind: "cifas" });
      expect(partnerBadgeLabel(partnerBadge(name))).toBe("CIFAS Partnership");
    },
  );

  it("any other partner shows its name", () => {
    expect(partnerBadge("Harbourside Counter Fraud Academy")).toEqual({
      kind: "partner",
      name: "Harbourside Counter Fraud Academy",
    });
    expect(partnerBadgeLabel(partnerBadge("Harbourside Counter Fraud Academy"))).toBe(
      "Harbourside Counter Fraud Academy",
    );
  });

  it.each([null, undefined, ""])("no partner (%j) is a NightWatch exclusive", (name) => {
    expect(partnerBadge(name)).toEqual({ kind: "exclusive" });
    expect(partnerBadgeLabel(partnerBadge(name))).toBe("NightWatch Exclusive Course");
  });
});

describe("price and duration formats", () => {
  it.each([
    ["1450.00", "£1,450.00"],
    ["295", "£295.00"],
    ["0.5", "£0.50"],
    ["0.00", "£0.00"],
    [1450, "£1,450.00"],
    ["1234567.89", "£1,234,567.89"],
  ])("price %j → %s", (price, expected) => {
    expect(formatPrice(price)).toBe(expected);
    expect(formatCoursePrice(price)).toBe(expected);
  });

  it.each([
    [0, "£0.00", "0.00"],
    [7, "£0.07", "0.07"],
    [29500, "£295.00", "295.00"],
    [125000, "£1,250.00", "1250.00"],
    [2147483647, "£21,474,836.47", "21474836.47"],
  ])("pence %j → %s, or %s as a bare figure", (pence, shown, plain) => {
    expect(formatPence(pence)).toBe(shown);
    expect(formatPence(pence, { plain: true })).toBe(plain);
  });

  it.each([null, undefined, "", "not a number"])("no price (%j)", (price) => {
    expect(formatPrice(price)).toBeNull();
    expect(formatCoursePrice(price)).toBe("Contact us");
  });

  it.each([
    [7, "7h"],
    [14, "14h"],
    [0, "0h"],
    [null, "TBD"],
    [undefined, "TBD"],
  ])("duration %j → %s", (hours, expected) => {
    expect(formatDuration(hours)).toBe(expected);
  });
});
