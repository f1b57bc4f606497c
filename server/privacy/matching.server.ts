/**
 * How a person's rows are matched and replaced, shared by finding, erasing and retention: the
 * address compared trimmed and lower-cased in every table and in the outbox's recipients, the
 * digest that names a person in the audit log, and the undeliverable addresses and words that
 * take an erased person's place.
 */
import { createHmac } from "node:crypto";
import * as orm from "drizzle-orm";
import { type Database, type Transaction } from "../db/client.server.ts";
import { containsPattern } from "../db/sql.server.ts";
import { emailOutbox } from "../db/schema.ts";
import { derivedSecret } from "../auth/secret.server.ts";

export type Executor = Database | Transaction;

/**
 * How the audit log names a person: an HMAC-SHA-256 (hex) of the trimmed, lower-cased address,
 * keyed by a secret derived from the auth secret — so a guessed address cannot be confirmed from
 * the log without the server's secret.
 */
export function emailDigest(email: string): string {
  return createHmac("sha256", derivedSecret("privacy-digest"))
    .update(email.trim().toLowerCase())
    .digest("hex");
}

/** Replacement addresses under the reserved .invalid domain (RFC 2606): never deliverable. */
export function erasedAddress(
  kind: "order" | "student" | "inquiry" | "quote" | "licence",
  id: string,
): string {
  return `${kind}-${id}@erased.invalid`;
}

export const ERASED = "Erased";

export const ANONYMISED = "Anonymised";

export function sameEmail(column: orm.AnyColumn, email: string): orm.SQL {
  return orm.sql`lower(trim(${column})) = ${email}`;
}

/**
 * Whether an outbox row's recipients (one address or a comma-separated list, each possibly
 * written `Name <address>`) include `email`.
 */
export function addressedTo(email: string): orm.SQL {
  // The `like` narrows the rows first (a trigram index where PostgreSQL has pg_trgm, migration
  // 0018); the exact check then runs on those few only.
  return orm.sql`lower(${emailOutbox.toAddress}) like ${containsPattern(email)} and exists (
    select 1 from unnest(string_to_array(${emailOutbox.toAddress}, ',')) as r(addr)
    where lower(trim(coalesce(substring(r.addr from '<([^>]*)>'), r.addr))) = ${email}
  )`;
}

/** Outbox rows addressed to the person, or about their inquiries or their own orders. */
export function outboxCondition(email: string, inquiryIds: string[], orderIds: string[]): orm.SQL {
  const parts = [addressedTo(email)];
  if (inquiryIds.length) parts.push(orm.inArray(emailOutbox.inquiryId, inquiryIds));
  if (orderIds.length) parts.push(orm.inArray(emailOutbox.orderId, orderIds));
  return orm.or(...parts)!;
}

export const iso = (d: Date) => d.toISOString();

export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
