import { z } from "zod";
import {
  REQUIRED_SELLER_SETTINGS,
  SELLER_SETTING_KEYS,
  SELLER_SETTINGS_MESSAGES,
  type SellerSettingKey,
  type SellerSettingsScreen,
} from "#app/lib/admin/seller-settings.ts";
import { recordAudit, type AuditActor } from "./audit.server.ts";
import { config, environmentValues } from "./config.server.ts";
import { sellerConfig, sellerSettings } from "./config/seller.server.ts";
import { db } from "./db/client.server.ts";
import { sellerSettingsTable } from "./db/schema.ts";
import { log } from "./log.server.ts";

/**
 * The seller's settings staff can change (docs/decisions/0043-seller-settings.md): legal name,
 * address, company, VAT and ICO numbers, VAT rate and whether prices include it, payment terms,
 * payment instructions, bank details, the Xero account and the reminder days. Each is read from
 * its saved row, else from the environment (which thus seeds it), through the very checks the
 * environment's values pass at start. What is in force is `config.seller` (and
 * `config.invoiceReminderDays`), replaced when staff save and re-read every minute, so every
 * instance follows a change without a restart. Documents already issued keep their snapshot.
 */

const schema = z.object(
  Object.fromEntries(SELLER_SETTING_KEYS.map((key) => [key, sellerSettings[key]])) as {
    [K in SellerSettingKey]: (typeof sellerSettings)[K];
  },
);

type RawSettings = Record<SellerSettingKey, string>;

/** The environment's value of each setting, as typed ('' when unset). */
const environmentSettings = (): RawSettings => environmentValues(SELLER_SETTING_KEYS);

async function savedRows() {
  return db().select().from(sellerSettingsTable);
}

/** The settings as typed: saved values over the environment's. */
async function rawSettings(): Promise<{
  values: RawSettings;
  saved: Set<string>;
  at: Date | null;
  by: string | null;
}> {
  const values = environmentSettings();
  const saved = new Set<string>();
  let at: Date | null = null;
  let by: string | null = null;
  for (const row of await savedRows()) {
    if (!(SELLER_SETTING_KEYS as readonly string[]).includes(row.key)) continue;
    values[row.key as SellerSettingKey] = row.value;
    saved.add(row.key);
    if (!at || row.updatedAt > at) {
      at = row.updatedAt;
      by = row.updatedBy;
    }
  }
  return { values, saved, at, by };
}

/** Field messages for values that fail the checks, by setting. */
function check(values: RawSettings) {
  // Unset values are undefined to the schema, exactly as a missing environment variable is.
  const input = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value === "" ? undefined : value]),
  );
  return schema.safeParse(input);
}

let applied = "";

/** Puts `values` in force (when they differ from those in force). */
function apply(values: RawSettings): boolean {
  const parsed = check(values);
  if (!parsed.success) {
    // Saved values were checked when saved; a default or rule changed since. Keep what is in force.
    log.error({ issues: parsed.error.issues }, "saved seller settings no longer pass their checks");
    return false;
  }
  const key = JSON.stringify(values);
  if (key === applied) return false;
  applied = key;
  config.seller = sellerConfig({ ...parsed.data } as Parameters<typeof sellerConfig>[0]);
  config.invoiceReminderDays = parsed.data.INVOICE_REMINDER_DAYS;
  return true;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called when the settings in force change (the page cache drops pages showing the footer). */
export function onSellerSettingsChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads the saved settings and puts them in force; true when something changed. */
export async function refreshSellerSettings(): Promise<boolean> {
  const changed = apply((await rawSettings()).values);
  if (changed) for (const listener of listeners) listener();
  return changed;
}

let timer: NodeJS.Timeout | undefined;

/** Reads the settings now and every minute (another instance may have saved). */
export async function startSellerSettings(): Promise<void> {
  applied = JSON.stringify(environmentSettings());
  await refreshSellerSettings();
  timer ??= setInterval(() => {
    refreshSellerSettings().catch((error: unknown) =>
      log.error({ err: error }, "could not read the seller settings"),
    );
  }, 60_000);
  timer.unref();
}

export function stopSellerSettings(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
}

/** The Settings screen: every setting as typed, and whether it was saved or comes from the environment. */
export async function sellerSettingsScreen(): Promise<SellerSettingsScreen> {
  const raw = await rawSettings();
  return {
    values: raw.values,
    fromEnvironment: SELLER_SETTING_KEYS.filter(
      (key) => !raw.saved.has(key) && raw.values[key] !== "",
    ),
    updatedAt: raw.at?.toISOString() ?? null,
    updatedBy: raw.by,
  };
}

export type SaveOutcome =
  | { ok: true; changed: SellerSettingKey[] }
  | { ok: false; fieldErrors: Partial<Record<SellerSettingKey, string>> };

/**
 * Saves the settings as posted (each trimmed), after the same checks as the environment's: a
 * refused value changes nothing. The change is audited (before and after of each setting that
 * changed) and in force at once.
 */
export async function saveSellerSettings(
  posted: Partial<Record<string, string>>,
  admin: AuditActor,
): Promise<SaveOutcome> {
  const before = await rawSettings();
  const values = { ...before.values };
  for (const key of SELLER_SETTING_KEYS) {
    const value = posted[key];
    if (typeof value === "string") values[key] = value.replace(/\r\n/g, "\n").trim();
  }
  const parsed = check(values);
  const fieldErrors: Partial<Record<SellerSettingKey, string>> = {};
  // Left empty, these would fall back to their defaults: staff are asked to fill them in.
  for (const key of SELLER_SETTING_KEYS) {
    if (REQUIRED_SELLER_SETTINGS.has(key) && values[key] === "") {
      fieldErrors[key] = SELLER_SETTINGS_MESSAGES.required;
    }
  }
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    fieldErrors[issue.path[0] as SellerSettingKey] ??= issue.message;
  }
  if (!parsed.success || Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  const changed = SELLER_SETTING_KEYS.filter((key) => values[key] !== before.values[key]);
  if (changed.length === 0) return { ok: true, changed };
  await db().transaction(async (tx) => {
    for (const key of changed) {
      await tx
        .insert(sellerSettingsTable)
        .values({ key, value: values[key], updatedBy: admin.email })
        .onConflictDoUpdate({
          target: sellerSettingsTable.key,
          set: { value: values[key], updatedBy: admin.email, updatedAt: new Date() },
        });
    }
    await recordAudit(tx, admin, {
      action: "settings.seller",
      subjectType: "settings",
      subjectId: "seller",
      summary: `Seller settings: ${changed.join(", ")}`,
      before: Object.fromEntries(changed.map((key) => [key, before.values[key]])),
      after: Object.fromEntries(changed.map((key) => [key, values[key]])),
    });
  });
  await refreshSellerSettings();
  log.info({ changed, admin: admin.email }, "seller settings saved");
  return { ok: true, changed };
}
