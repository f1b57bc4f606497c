/**
 * A quote's or a licence's contact, replaced in place by an erasure (decision 0020) or by the
 * retention rule (decision 0051). The number, amounts, organisation and dates stay: an accepted
 * quote is part of a contract, a licence is the organisation's. A sent quote's snapshot is what
 * its PDF prints, so the contact goes from there too.
 */
import * as orm from "drizzle-orm";
import type { Transaction } from "../db/client.server.ts";
import { licences, quotes } from "../db/schema.ts";

/** `<kind>-<id>@erased.invalid`, as `erasedAddress` writes it, worked out by the database. */
function erasedAddressOf(kind: "quote" | "licence", id: orm.AnyColumn): orm.SQL {
  return orm.sql`${kind}::text || '-' || ${id}::text || '@erased.invalid'`;
}

export async function anonymiseQuoteContacts(
  tx: Transaction,
  ids: readonly string[],
  name: string,
  now: Date,
): Promise<void> {
  if (!ids.length) return;
  const address = erasedAddressOf("quote", quotes.id);
  await tx
    .update(quotes)
    .set({
      contactName: name,
      contactEmail: address,
      snapshot: orm.sql`case when ${quotes.snapshot} is null then null else jsonb_set(jsonb_set(${quotes.snapshot}, '{customer,name}', to_jsonb(${name}::text)), '{customer,email}', to_jsonb(${address})) end`,
      anonymisedAt: now,
      updatedAt: now,
    })
    .where(orm.inArray(quotes.id, [...ids]));
}

export async function anonymiseLicenceContacts(
  tx: Transaction,
  ids: readonly string[],
  name: string,
  now: Date,
): Promise<void> {
  if (!ids.length) return;
  await tx
    .update(licences)
    .set({
      contactName: name,
      contactEmail: erasedAddressOf("licence", licences.id),
      anonymisedAt: now,
      updatedAt: now,
    })
    .where(orm.inArray(licences.id, [...ids]));
}
