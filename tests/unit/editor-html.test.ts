import { describe, expect, it } from "vitest";
import { normaliseEditorHtml } from "#app/lib/catalogue/editor-html.ts";

describe("normaliseEditorHtml (Quill 2.0.3 writes every space as &nbsp;)", () => {
  it("turns single spaces back into spaces so text wraps", () => {
    expect(normaliseEditorHtml("<p>Spot&nbsp;and&nbsp;stop&nbsp;fraud</p>")).toBe(
      "<p>Spot and stop fraud</p>",
    );
  });

  it("keeps the author's runs of spaces, with one breakable space", () => {
    expect(normaliseEditorHtml("<p>a&nbsp;&nbsp;&nbsp;b</p>")).toBe("<p>a &nbsp;&nbsp;b</p>");
  });

  it("leaves markup and a typed no-break space (a character, not the entity) alone", () => {
    expect(normaliseEditorHtml('<p class="ql-align-center">£\u00a0100</p>')).toBe(
      '<p class="ql-align-center">£\u00a0100</p>',
    );
  });
});
