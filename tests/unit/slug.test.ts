import { describe, expect, it } from "vitest";
import { isSlugVariant, nextFreeSlug, slugify } from "#app/lib/catalogue/slug.ts";
import { categoryFormSchema } from "#app/lib/catalogue/category-form.ts";
import { courseFormSchema, SLUG_INVALID } from "#app/lib/catalogue/course-form.ts";
import { isWebUrl } from "#app/lib/admin-form.ts";
import { publicUrlOrNull } from "#server/catalogue/courses.server.ts";

describe("slugify (lower-case, runs of non-alphanumerics → '-', hyphens trimmed)", () => {
  it.each([
    ["Fraud Prevention", "fraud-prevention"],
    ["  Fraud   Prevention  ", "fraud-prevention"],
    ["Fraud & Risk: 101!", "fraud-risk-101"],
    ["--Already-Hyphenated--", "already-hyphenated"],
    ["KYC/AML (Advanced)", "kyc-aml-advanced"],
    ["OSINT_Investigations", "osint-investigations"],
    ["Café Fraud", "caf-fraud"],
    ["2026 Edition", "2026-edition"],
    ["UPPER lower", "upper-lower"],
    ["a", "a"],
    ["!!!", ""],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it("never leaves a double or edge hyphen", () => {
    for (const input of ["a -- b", "-a-", "a\tb\nc", "a.b,c;d"]) {
      const slug = slugify(input);
      expect(slug).not.toMatch(/--|^-|-$/);
    }
  });
});

describe("unique slugs", () => {
  it("uses the base when free, otherwise one past the highest number in use", () => {
    expect(nextFreeSlug("fraud", [])).toBe("fraud");
    expect(nextFreeSlug("fraud", ["fraud"])).toBe("fraud-2");
    expect(nextFreeSlug("fraud", ["fraud", "fraud-2"])).toBe("fraud-3");
    expect(nextFreeSlug("fraud", ["fraud", "fraud-7"])).toBe("fraud-8");
    // Other slugs that merely start with the base do not count.
    expect(nextFreeSlug("fraud", ["fraud", "fraud-prevention", "fraud-2x"])).toBe("fraud-2");
  });

  it("recognises numbered variants only", () => {
    expect(isSlugVariant("fraud", "fraud")).toBe(true);
    expect(isSlugVariant("fraud-12", "fraud")).toBe(true);
    expect(isSlugVariant("fraud-prevention", "fraud")).toBe(false);
    expect(isSlugVariant("fraudster", "fraud")).toBe(false);
  });
});

describe("slug field of the course and category forms", () => {
  it("is optional: empty means 'generate from the title/name'", () => {
    expect(categoryFormSchema.parse({ name: "Fraud", slug: "" }).slug).toBeNull();
    expect(courseFormSchema.parse({ title: "Fraud", slug: "  " }).slug).toBeNull();
  });

  it("keeps a typed slug, lower-cased", () => {
    expect(categoryFormSchema.parse({ name: "Fraud", slug: "Fraud-101" }).slug).toBe("fraud-101");
  });

  it.each(["fraud prevention", "fraud--prevention", "-fraud", "fraud/../x", "fraud_1", "fräud"])(
    "refuses %j with a message",
    (slug) => {
      const result = categoryFormSchema.safeParse({ name: "Fraud", slug });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(SLUG_INVALID);
    },
  );
});

describe("one-line names and titles of the catalogue forms", () => {
  it("turn control characters into a space, then trim", () => {
    expect(categoryFormSchema.parse({ name: "\u001aFraud\r\n\u0003Risk\t" }).name).toBe(
      "Fraud Risk",
    );
    expect(courseFormSchema.parse({ title: "Intro\u0000duction" }).title).toBe("Intro duction");
  });

  it("are required even when only control characters were sent", () => {
    expect(categoryFormSchema.safeParse({ name: "\u0001\u0002 " }).success).toBe(false);
  });
});

describe("links of the catalogue forms", () => {
  it.each([
    "https://ok.example/\r\nSet-Cookie: x=y",
    "https://ok.example/a b",
    "https://ok.example/\tx",
    "javascript:alert(1)",
    "//evil.example",
  ])("refuse %j (the public pages would not show it)", (link) => {
    expect(isWebUrl(link)).toBe(false);
    expect(publicUrlOrNull(link)).toBeNull();
  });

  it("accept an http(s) URL", () => {
    expect(isWebUrl("https://partner.example/training?x=1")).toBe(true);
  });
});
