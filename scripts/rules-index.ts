import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * docs/rules.md, the index of the product's business rules, read as data: each list line is
 * `- <rule> → \`<path>:<symbol>\``. tests/unit/rules-index.test.ts uses this to prove every
 * path still declares its symbol. Run as a script after files have moved:
 * `npx tsx scripts/rules-index.ts` lists the broken lines; `--repoint` rewrites each broken path
 * to the one file under app/ or server/ that declares the symbol now (of several, the one with the
 * old file's name; a renamed symbol is left for a person to point).
 */

export const INDEX = "docs/rules.md";

/** The only shape a list line of the index may have. */
const RULE_LINE =
  /^- (?<rule>\S.*\S) → `(?<path>[\w./-]+\.(?:ts|tsx)):(?<symbol>[A-Za-z_$][\w$]*)`$/;

export interface Rule {
  line: number;
  section: string;
  rule: string;
  path: string;
  symbol: string;
}

/** The rules of the index, and the list lines (outside code blocks) that do not have the shape. */
export function parseIndex(text: string): { rules: Rule[]; malformed: string[] } {
  const rules: Rule[] = [];
  const malformed: string[] = [];
  let section = "";
  let fenced = false;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trimEnd();
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) return;
    if (line.startsWith("## ")) section = line.slice(3);
    if (!line.startsWith("- ")) return;
    const match = RULE_LINE.exec(line);
    if (!match?.groups || section === "") {
      malformed.push(`${INDEX}:${index + 1}: ${line}`);
      return;
    }
    const { rule, path, symbol } = match.groups as Record<"rule" | "path" | "symbol", string>;
    rules.push({ line: index + 1, section, rule, path, symbol });
  });
  return { rules, malformed };
}

/**
 * Whether `source` declares `symbol` at the start of a line (function, const, let, var, class,
 * type, interface or enum, exported or not) or exports it by name (`export { a, b as symbol }`).
 */
export function declares(source: string, symbol: string): boolean {
  const name = symbol.replace(/\$/g, "\\$");
  const declaration = new RegExp(
    String.raw`^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?` +
      String.raw`(?:function\*?|const|let|var|class|type|interface|enum)[ \t]+${name}(?![\w$])`,
    "m",
  );
  if (declaration.test(source)) return true;
  for (const list of source.matchAll(/^[ \t]*export[ \t]+(?:type[ \t]+)?\{([^}]*)\}/gm)) {
    const exported = (list[1] ?? "")
      .split(",")
      .map((item) => item.trim().replace(/^type\s+/, ""))
      .map((item) =>
        item
          .split(/\s+as\s+/)
          .pop()
          ?.trim(),
      );
    if (exported.includes(symbol)) return true;
  }
  return false;
}

/** Why a rule's pointer is broken under `root`, or null when the file declares the symbol. */
export function brokenPointer(root: string, rule: Rule): string | null {
  if (isAbsolute(rule.path) || normalize(rule.path).startsWith("..")) {
    return `${rule.path} is not a path inside the repository`;
  }
  const file = join(root, rule.path);
  if (!existsSync(file)) return `${rule.path} does not exist (moved? re-point the line)`;
  if (!declares(readFileSync(file, "utf8"), rule.symbol)) {
    return `${rule.path} does not declare ${rule.symbol} (renamed?)`;
  }
  return null;
}

function sourceFiles(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(root, path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

function main(): void {
  const root = process.cwd();
  const repoint = process.argv.includes("--repoint");
  const text = readFileSync(join(root, INDEX), "utf8");
  const { rules, malformed } = parseIndex(text);
  const files = ["app", "server"].flatMap((dir) => sourceFiles(root, dir));
  const sources = new Map(files.map((file) => [file, readFileSync(join(root, file), "utf8")]));
  const lines = text.split("\n");
  const left: string[] = [...malformed];
  let moved = 0;
  for (const rule of rules) {
    const problem = brokenPointer(root, rule);
    if (problem === null) continue;
    const homes = files.filter((file) => declares(sources.get(file) ?? "", rule.symbol));
    // Several files declare it (a private helper's name): the one with the old file's name.
    const sameName = homes.filter((file) => basename(file) === basename(rule.path));
    const home = homes.length === 1 ? homes[0] : sameName.length === 1 ? sameName[0] : undefined;
    if (repoint && home) {
      const index = rule.line - 1;
      lines[index] = (lines[index] ?? "").replace(
        `\`${rule.path}:${rule.symbol}\``,
        `\`${home}:${rule.symbol}\``,
      );
      moved += 1;
      continue;
    }
    const hint = homes.length > 0 ? ` — declared in ${homes.join(", ")}` : "";
    left.push(`${INDEX}:${rule.line}: ${problem}${hint}`);
  }
  if (moved > 0) {
    writeFileSync(join(root, INDEX), lines.join("\n"));
    console.log(`${INDEX}: ${moved} rule(s) re-pointed to where their symbol lives now.`);
  }
  if (left.length > 0) {
    console.error(left.join("\n"));
    process.exit(1);
  }
  console.log(`${INDEX}: ${rules.length} rules, every one pointing at a declared symbol.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
