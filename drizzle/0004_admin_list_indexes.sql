DROP INDEX "orders_created_at_idx";--> statement-breakpoint
DROP INDEX "inquiries_created_at_idx";--> statement-breakpoint
DROP INDEX "inquiries_status_created_at_idx";--> statement-breakpoint
DROP INDEX "inquiries_type_created_at_idx";--> statement-breakpoint
DROP INDEX "newsletter_subscriptions_subscribed_at_idx";--> statement-breakpoint
CREATE INDEX "orders_created_at_id_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inquiries_created_at_idx" ON "inquiries" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "inquiries_status_created_at_idx" ON "inquiries" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "inquiries_type_created_at_idx" ON "inquiries" USING btree ("inquiry_type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "newsletter_subscriptions_subscribed_at_idx" ON "newsletter_subscriptions" USING btree ("subscribed_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Payments search (name, e-mail, company, course) as a trigram index where PostgreSQL has pg_trgm
-- (a trusted extension: the database owner may create it). Where it cannot be created (e.g. the
-- embedded PGlite), the search still works by scanning the table. Same expression as
-- server/orders.server.ts `orderSearchText`.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: the order search scans the table';
END $$;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "orders_search_trgm_idx" ON "orders" USING gin (
      lower("buyer_first_name" || ' ' || "buyer_last_name" || ' ' || "buyer_email" || ' ' || coalesce("buyer_company", '') || ' ' || "course_title_snapshot") gin_trgm_ops
    );
  END IF;
END $$;--> statement-breakpoint
-- Admin search boxes (inquiries: name, e-mail, company; newsletter: e-mail) as trigram indexes,
-- on the same terms as the orders index above: where pg_trgm exists. Same expressions as
-- server/inquiries.server.ts `inquirySearchText` and server/newsletter.server.ts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "inquiries_search_trgm_idx" ON "inquiries" USING gin (
      lower("name" || ' ' || "email" || ' ' || coalesce("company", '')) gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "newsletter_subscriptions_email_trgm_idx" ON "newsletter_subscriptions" USING gin (
      lower("email") gin_trgm_ops
    );
  END IF;
END $$;
