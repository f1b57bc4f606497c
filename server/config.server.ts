import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The one place that reads process.env. Everything else imports `config`.
 * Validated once, at first import; a bad value stops start-up with a message
 * that names the variable.
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const emailList = z
  .string()
  .trim()
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ message: "must be a comma-separated list of e-mail addresses" })));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  HOST: z.string().trim().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url({ message: "must be an absolute URL" }).optional()),
  ADMIN_EMAIL: z.email({ message: "must be an e-mail address" }).default("admin@example.com"),
  ADMIN_EMAILS: emailList.optional(),
  SEED_DEMO_CONTENT: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example.`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === "production",
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    adminEmail: e.ADMIN_EMAIL,
    adminEmails: e.ADMIN_EMAILS?.length ? e.ADMIN_EMAILS : [e.ADMIN_EMAIL],
    seedDemoContent: e.SEED_DEMO_CONTENT,
    logLevel: e.LOG_LEVEL,
  };
}

// A .env file beside package.json is honoured, without overriding the real environment.
if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");

export const config = loadConfig();
