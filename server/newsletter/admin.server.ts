/**
 * The admin area's Newsletter screen: the list (search, paging and counts in the database),
 * stats, the active toggle, release or deletion of suspected spam, and the export's addresses.
 * Callers have already passed requireAdmin().
 */
import * as orm from "drizzle-orm";
import {
  SUBSCRIPTION_PAGE_SIZE,
  type AdminSubscription,
  type SubscriptionFilters,
  type SubscriptionStats,
} from "#app/lib/newsletter/admin.ts";
import type { AdminList } from "#app/lib/admin/list.ts";
import { startOfLondonDay } from "#app/lib/admin/time.ts";
import { allOf, newestFirst, readListPage, spamFilterCondition } from "../admin-list.server.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { newsletterSubscriptions } from "../db/schema.ts";
import { containsPattern } from "../db/sql.server.ts";
import { log } from "../log.server.ts";
import { queueNewsletterWelcome } from "./unsubscribe.server.ts";

type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

function toAdminSubscription(row: SubscriptionRow): AdminSubscription {
  return {
    id: row.id,
    email: row.email,
    isActive: row.isActive,
    source: row.source,
    spamReason: row.spamReason,
    subscribedAt: row.subscribedAt.toISOString(),
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
  };
}

function subscriptionWhere(filters: Omit<SubscriptionFilters, "page">): orm.SQL | undefined {
  return allOf([
    // `%`, `_` and `\` typed into the search box are matched literally. lower(email) is indexed
    // (trigram GIN, migration 0004) where PostgreSQL has pg_trgm.
    filters.q
      ? orm.sql`lower(${newsletterSubscriptions.email}) like ${containsPattern(filters.q)}`
      : undefined,
    spamFilterCondition(newsletterSubscriptions.spamReason, filters.spam),
  ]);
}

/** One page of subscriptions, newest first (by subscribed_at). */
export function listSubscriptionsForAdmin(
  filters: SubscriptionFilters,
  knownTotal?: number,
): Promise<AdminList<AdminSubscription>> {
  return readListPage(newsletterSubscriptions, {
    where: subscriptionWhere(filters),
    order: newestFirst([newsletterSubscriptions.subscribedAt, newsletterSubscriptions.id], "first"),
    page: filters.page,
    pageSize: SUBSCRIPTION_PAGE_SIZE,
    knownTotal,
    toItem: toAdminSubscription,
  });
}

/** The Newsletter screen's reads: the stats, and the page (counted from them without a search). */
export async function subscriptionsScreen(
  filters: SubscriptionFilters,
  now: Date = new Date(),
): Promise<AdminList<AdminSubscription> & { stats: SubscriptionStats }> {
  const stats = await subscriptionStats(now);
  const known = filters.q
    ? undefined
    : filters.spam === "only"
      ? stats.suspected
      : filters.spam === "none"
        ? stats.total
        : stats.total + stats.suspected;
  const list = await listSubscriptionsForAdmin(filters, known);
  return { ...list, stats };
}

/**
 * Total, active and New Today (subscribed since midnight in London) over real subscriptions, and
 * the number held as suspected spam (counted apart), in one aggregate query.
 */
export async function subscriptionStats(now: Date = new Date()): Promise<SubscriptionStats> {
  const since = startOfLondonDay(now);
  const real = orm.sql`${newsletterSubscriptions.spamReason} is null`;
  const [row] = await db()
    .select({
      total: orm.sql<number>`count(*) filter (where ${real})`.mapWith(Number),
      active:
        orm.sql<number>`count(*) filter (where ${real} and ${newsletterSubscriptions.isActive})`.mapWith(
          Number,
        ),
      newToday:
        orm.sql<number>`count(*) filter (where ${real} and ${newsletterSubscriptions.subscribedAt} >= ${since.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
      suspected: orm.sql<number>`count(*) filter (where not ${real})`.mapWith(Number),
    })
    .from(newsletterSubscriptions);
  return {
    total: row?.total ?? 0,
    active: row?.active ?? 0,
    newToday: row?.newToday ?? 0,
    suspected: row?.suspected ?? 0,
  };
}

/** Why staff may not switch a subscription on: the person withdrew their consent themselves. */
export class ConsentWithdrawn extends Error {
  constructor(readonly unsubscribedAt: Date) {
    super("the subscriber unsubscribed themselves");
  }
}

/**
 * Activate or deactivate one subscription. Null when there is no such subscription. A change is
 * written to the audit log as the admin's, in the same transaction. Someone who unsubscribed
 * themselves cannot be switched back on by staff (throws ConsentWithdrawn): only a new
 * subscription of their own gives the consent marketing e-mail needs (docs/rules.md).
 */
export async function setSubscriptionActive(
  id: string,
  active: boolean,
  actor: AuditActor,
): Promise<AdminSubscription | null> {
  const row = await db().transaction(async (tx) => {
    const [before] = await tx
      .select({
        isActive: newsletterSubscriptions.isActive,
        unsubscribedAt: newsletterSubscriptions.unsubscribedAt,
      })
      .from(newsletterSubscriptions)
      .where(orm.eq(newsletterSubscriptions.id, id))
      .for("update");
    if (!before) return undefined;
    if (active && !before.isActive && before.unsubscribedAt) {
      throw new ConsentWithdrawn(before.unsubscribedAt);
    }
    const [after] = await tx
      .update(newsletterSubscriptions)
      .set({ isActive: active })
      .where(orm.eq(newsletterSubscriptions.id, id))
      .returning();
    if (after && before.isActive !== after.isActive) {
      await recordAudit(tx, actor, {
        action: "subscription.update",
        subjectType: "subscription",
        subjectId: after.id,
        summary: after.email,
        before: { isActive: before.isActive },
        after: { isActive: after.isActive },
      });
    }
    return after;
  });
  return row ? toAdminSubscription(row) : null;
}

/** 'Release' on a suspected-spam subscription: clears the mark. Null when there is none held. */
export async function releaseSubscription(
  id: string,
  actor: AuditActor,
): Promise<AdminSubscription | null> {
  const held = orm.and(
    orm.eq(newsletterSubscriptions.id, id),
    orm.isNotNull(newsletterSubscriptions.spamReason),
  );
  const row = await db().transaction(async (tx) => {
    const [before] = await tx
      .select({ spamReason: newsletterSubscriptions.spamReason })
      .from(newsletterSubscriptions)
      .where(held)
      .for("update");
    if (!before) return undefined;
    const [after] = await tx
      .update(newsletterSubscriptions)
      .set({ spamReason: null })
      .where(held)
      .returning();
    if (after) {
      await recordAudit(tx, actor, {
        action: "subscription.release",
        subjectType: "subscription",
        subjectId: after.id,
        summary: after.email,
        before: { spamReason: before.spamReason },
        after: { spamReason: null },
      });
      // Held sign-ups had no welcome e-mail (decision 0012): it goes now, once (decision 0021).
      await queueNewsletterWelcome(tx, after);
    }
    return after;
  });
  if (row) log.info({ subscriptionId: id }, "suspected-spam subscription released");
  return row ? toAdminSubscription(row) : null;
}

/** 'Delete' on a suspected-spam subscription (only those: real sign-ups are deactivated). */
export async function deleteSuspectedSubscription(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const rows = await tx
      .delete(newsletterSubscriptions)
      .where(
        orm.and(
          orm.eq(newsletterSubscriptions.id, id),
          orm.isNotNull(newsletterSubscriptions.spamReason),
        ),
      )
      .returning();
    for (const row of rows) {
      await recordAudit(tx, actor, {
        action: "subscription.delete",
        subjectType: "subscription",
        subjectId: row.id,
        summary: row.email,
        before: {
          email: row.email,
          source: row.source,
          spamReason: row.spamReason,
          subscribedAt: row.subscribedAt.toISOString(),
        },
      });
    }
    return rows;
  });
  if (deleted.length > 0) log.info({ subscriptionId: id }, "suspected-spam subscription deleted");
  return deleted.length > 0;
}

/** 'Export Active Emails': every active address, newest subscription first; no suspected spam. */
export async function activeSubscriberEmails(): Promise<string[]> {
  const rows = await db()
    .select({ email: newsletterSubscriptions.email })
    .from(newsletterSubscriptions)
    .where(
      orm.and(
        orm.eq(newsletterSubscriptions.isActive, true),
        orm.isNull(newsletterSubscriptions.spamReason),
      ),
    )
    .orderBy(orm.desc(newsletterSubscriptions.subscribedAt), orm.desc(newsletterSubscriptions.id));
  return rows.map((r) => r.email);
}
