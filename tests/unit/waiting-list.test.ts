import { describe, expect, it } from "vitest";
import { parseForm } from "#app/lib/forms.ts";
import { announceSchema, waitingListSchema } from "#app/lib/catalogue/waiting-list.ts";
import { chooseOffers, MAX_SKIPS } from "#server/catalogue/waiting-list-offers.server.ts";

/** The waiting list's pure rules (decision 0034): the group rule and the form's schema. */

const entry = (id: string, places: number, skips = 0) => ({ id, places, skips });

describe("chooseOffers (the group rule)", () => {
  it("offers in the order of joining while the free places cover each entry", () => {
    expect(chooseOffers([entry("a", 1), entry("b", 2), entry("c", 1)], 3)).toEqual(["a", "b"]);
    expect(chooseOffers([entry("a", 1)], 0)).toEqual([]);
  });

  it("passes over a group that does not fit, for a smaller entry behind it", () => {
    expect(chooseOffers([entry("group", 5), entry("single", 1)], 2)).toEqual(["single"]);
  });

  it("a group passed over MAX_SKIPS times keeps its turn: nobody behind it is offered", () => {
    expect(MAX_SKIPS).toBe(2);
    expect(chooseOffers([entry("group", 5, 2), entry("single", 1)], 2)).toEqual([]);
    // Passed over once already: one more offer behind it, then it holds the queue.
    expect(
      chooseOffers([entry("group", 5, 1), entry("s1", 1), entry("s2", 1), entry("s3", 1)], 4),
    ).toEqual(["s1"]);
    // Once enough places are free, it is offered first.
    expect(chooseOffers([entry("group", 5, 2), entry("single", 1)], 6)).toEqual([
      "group",
      "single",
    ]);
  });
});

describe("the waiting list form's schema", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    return data;
  };
  const good = {
    first_name: " Wendy ",
    last_name: "Wait",
    email: " Wendy@Example.COM ",
    organisation: "",
    places: "3",
    consent: "on",
  };

  it("trims, lower-cases the address, reads places, and makes an empty organisation null", () => {
    expect(parseForm(form(good), waitingListSchema)).toEqual({
      ok: true,
      value: {
        first_name: "Wendy",
        last_name: "Wait",
        email: "wendy@example.com",
        organisation: null,
        places: 3,
        consent: "on",
      },
    });
  });

  it("refuses 0 or 11 places, no consent, and a missing name", () => {
    for (const places of ["0", "11", "2.5", "x"]) {
      const parsed = parseForm(form({ ...good, places }), waitingListSchema);
      expect(parsed.ok ? null : parsed.fieldErrors.places, places).toBeTruthy();
    }
    const noConsent = parseForm(form({ ...good, consent: "" }), waitingListSchema);
    expect(noConsent.ok ? null : noConsent.fieldErrors.consent).toBeTruthy();
    const noName = parseForm(form({ name: "", email: "a@b.co", consent: "on" }), announceSchema);
    expect(noName.ok ? null : noName.fieldErrors.name).toBeTruthy();
  });
});
