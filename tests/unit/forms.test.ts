import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { checkoutFormSchema } from "#app/lib/checkout.ts";
import { parseForm } from "#app/lib/forms.ts";

/** The one parser every form goes through (app/lib/forms.ts), on odd posts. */

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

const schema = z.object({ email: z.string().check(z.minLength(1, "Required")) });

describe("parseForm", () => {
  it("gives the value, or the first message of each field by its posted name", () => {
    expect(parseForm(form([["email", "a@b.co"]]), schema)).toEqual({
      ok: true,
      value: { email: "a@b.co" },
    });
    expect(parseForm(form([["email", ""]]), schema)).toEqual({
      ok: false,
      fieldErrors: { email: "Required" },
    });
  });

  it("reads nested names into lists, and names the field of a list entry as posted", () => {
    const students = z.object({
      students: z.array(z.object({ email: z.string().check(z.minLength(1, "Required")) })),
    });
    const parsed = parseForm(
      form([
        ["students[0].email", "a@b.co"],
        ["students[1].email", ""],
      ]),
      students,
    );
    expect(parsed).toEqual({ ok: false, fieldErrors: { "students[1].email": "Required" } });
  });

  it("a field posted twice is a list, which a text field refuses", () => {
    const parsed = parseForm(
      form([
        ["email", "a@b.co"],
        ["email", "c@d.co"],
      ]),
      schema,
    );
    expect(parsed.ok).toBe(false);
  });

  it("refuses Conform's own intents and state, and malformed ones, instead of skipping the schema", () => {
    for (const entries of [
      [["__intent__", JSON.stringify({ type: "reset", payload: {} })]],
      [["__intent__", "{not json"]],
      [["__state__", "{not json"]],
      [["__proto__.polluted", "x"]],
    ] as [string, string][][]) {
      const parsed = parseForm(form([["email", "a@b.co"], ...entries]), schema);
      if (parsed.ok) expect(parsed.value).toEqual({ email: "a@b.co" });
      else expect(Object.keys(parsed.fieldErrors).length).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a list made huge by a posted index, without walking it", () => {
    const started = Date.now();
    const parsed = parseForm(form([["students[999999999].email", "a@b.co"]]), checkoutFormSchema);
    expect(parsed).toEqual({ ok: false, fieldErrors: { form: expect.any(String) } });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("the checkout reads at most ten student blocks, whatever is posted", () => {
    const entries: [string, string][] = [
      ["studentMode", "others"],
      ["quantity", "10"],
    ];
    for (let i = 0; i < 50; i++) entries.push([`students[${i}].email`, `s${i}@example.com`]);
    const parsed = parseForm(form(entries), checkoutFormSchema);
    expect(parsed.ok && parsed.value.values.students).toHaveLength(10);
  });
});
