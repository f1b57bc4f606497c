import { parseArgs } from "node:util";
import { checkAdminPassword, createAdmin, generatePassword } from "#server/auth/accounts.server.ts";
import { withDatabase } from "./cli.ts";

/**
 * npm run admin:create -- --email you@example.com
 *
 * The password comes from standard input: one line, or the same line twice (a confirmation).
 * At a terminal, leaving it empty generates one and prints it once. The database is migrated
 * first; on the embedded database this refuses while the site is running (directory lock).
 */

const usage =
  "Usage: npm run admin:create -- --email you@example.com\n" +
  "  The password is read from standard input (one line, or the same line twice to confirm);\n" +
  "  at a terminal, press Enter without typing one to have a password generated.";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let email: string;
try {
  const { values } = parseArgs({
    options: { email: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (!values.email) fail(`Missing --email.\n${usage}`);
  email = values.email;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
}

/** Reads one line at the terminal without echoing it. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const input = process.stdin;
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    let line = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          input.off("data", onData);
          input.setRawMode(false);
          input.pause();
          process.stderr.write("\n");
          resolve(line);
          return;
        }
        if (char === "\u0003") {
          process.stderr.write("\n");
          process.exit(130);
        }
        if (char === "\u007f" || char === "\b") line = line.slice(0, -1);
        else if (char >= " ") line += char;
      }
    };
    input.on("data", onData);
  });
}

async function readPiped(): Promise<string> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

/** The password and whether we made it up (then it is printed). */
async function readPassword(): Promise<{ password: string; generated: boolean }> {
  if (process.stdin.isTTY) {
    const first = await askHidden("Password (at least 12 characters; Enter to generate one): ");
    if (first === "") return { password: generatePassword(), generated: true };
    const problem = checkAdminPassword(first);
    if (problem) fail(problem);
    const again = await askHidden("Repeat the password: ");
    if (again !== first) fail("The two passwords differ: nothing created.");
    return { password: first, generated: false };
  }
  const lines = (await readPiped()).replace(/\r/g, "").split("\n");
  if (lines.at(-1) === "") lines.pop(); // the final newline
  if (lines.length === 0 || lines[0] === "")
    fail("No password on standard input: pipe it in (one line, or the same line twice).");
  if (lines.length > 2) fail("Expected one line (or the same line twice) on standard input.");
  if (lines.length === 2 && lines[0] !== lines[1])
    fail("The two passwords differ: nothing created.");
  return { password: lines[0]!, generated: false };
}

const { password, generated } = await readPassword();
const problem = checkAdminPassword(password);
if (problem) fail(problem);

// withDatabase prints a failure's message (e.g. 'An admin with the e-mail … already exists.') and exits 1.
await withDatabase(async () => {
  const admin = await createAdmin({ email, password });
  return generated
    ? `Admin ${admin.email} created. Password (shown only now): ${password}`
    : `Admin ${admin.email} created.`;
});
