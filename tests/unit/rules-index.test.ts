import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokenPointer, declares, INDEX, parseIndex } from "../../scripts/rules-index.ts";

/**
 * docs/rules.md is the index of the product's business rules, each line pointing at the file and
 * symbol that hold the rule. This test keeps the index true: every line has the one format, every
 * file exists and still declares (or exports) its symbol. A rename or a move fails here until the
 * index is re-pointed (`npm run docs:rules` re-points moved files).
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("declares", () => {
  it("finds declarations and named exports, and nothing else", () => {
    const source = [
      'import { type Imported } from "./x.ts";',
      "export function priceToPence() {}",
      "export async function createOrder() {}",
      "const SERIES = {};",
      "export type OrderRow = {};",
      "  interface Local {}",
      "export { helper as renamed, type Shape };",
    ].join("\n");
    for (const symbol of ["priceToPence", "createOrder", "SERIES", "OrderRow", "Local"]) {
      expect(declares(source, symbol), symbol).toBe(true);
    }
    expect(declares(source, "renamed")).toBe(true);
    expect(declares(source, "Shape")).toBe(true);
    // A renamed or only imported symbol is not declared.
    expect(declares(source, "priceToPennies")).toBe(false);
    expect(declares(source, "priceTo")).toBe(false);
    expect(declares(source, "Imported")).toBe(false);
    expect(declares(source, "helper")).toBe(false);
  });
});

describe(INDEX, () => {
  const { rules, malformed } = parseIndex(readFileSync(join(ROOT, INDEX), "utf8"));

  it("has one rule per list line, each in the format `- rule → `path:symbol``", () => {
    expect(malformed).toEqual([]);
    expect(rules.length).toBeGreaterThanOrEqual(60);
  });

  it("states each rule once", () => {
    const seen = new Set<string>();
    const repeated = rules.filter((rule) => seen.size === seen.add(rule.rule).size);
    expect(repeated.map((rule) => `${INDEX}:${rule.line}`)).toEqual([]);
  });

  it("points every rule at a file of the repository that declares its symbol", () => {
    const broken = rules.flatMap((rule) => {
      const problem = brokenPointer(ROOT, rule);
      return problem === null ? [] : [`${INDEX}:${rule.line}: ${problem}`];
    });
    expect(broken).toEqual([]);
  });
});
