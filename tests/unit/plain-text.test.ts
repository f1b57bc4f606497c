import { describe, expect, it } from "vitest";
import { formatCpdHours, textBlocks } from "#app/lib/catalogue/plain-text.ts";

/** Plain text staff type for the public pages: paragraphs, line breaks, "- " lists; CPD hours. */

describe("textBlocks", () => {
  it("parts paragraphs at blank lines, keeps line breaks, and makes lists of '- ' lines", () => {
    expect(
      textBlocks(
        "Who it is for:\r\nInvestigators\n\n- Interviews\n* Evidence\n• Reports\nAfter\n\n\n",
      ),
    ).toEqual([
      { kind: "paragraph", lines: ["Who it is for:", "Investigators"] },
      { kind: "list", items: ["Interviews", "Evidence", "Reports"] },
      { kind: "paragraph", lines: ["After"] },
    ]);
  });

  it("keeps markup as text and ignores empty input", () => {
    expect(textBlocks("<script>alert(1)</script>")).toEqual([
      { kind: "paragraph", lines: ["<script>alert(1)</script>"] },
    ]);
    expect(textBlocks(null)).toEqual([]);
    expect(textBlocks("  \n ")).toEqual([]);
    // A hyphen without a space is not a bullet.
    expect(textBlocks("-5 degrees")).toEqual([{ kind: "paragraph", lines: ["-5 degrees"] }]);
  });
});

describe("formatCpdHours", () => {
  it("says hours with at most one decimal, and nothing when unset", () => {
    expect(formatCpdHours("7.0")).toBe("7 hours");
    expect(formatCpdHours("7.5")).toBe("7.5 hours");
    expect(formatCpdHours("1.0")).toBe("1 hour");
    expect(formatCpdHours("0.0")).toBe("0 hours");
    expect(formatCpdHours(null)).toBeNull();
    expect(formatCpdHours("")).toBeNull();
  });
});
