-- The embedded database (PGlite) now opens with pg_trgm loaded (server/db/pglite.server.ts), so the
-- admin searches use trigram indexes there as on PostgreSQL. An embedded database made before
-- that has none of the trigram indexes of migrations 0004 and 0018 (pg_trgm could not be created
-- then): they are made here where missing, with the same expressions. On a PostgreSQL that had
-- pg_trgm they exist already; where pg_trgm still cannot be created the searches scan, as before.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: the admin searches scan their tables';
END $$;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "orders_search_trgm_idx" ON "orders" USING gin (
      lower("buyer_first_name" || ' ' || "buyer_last_name" || ' ' || "buyer_email" || ' ' || coalesce("buyer_company", '') || ' ' || "course_title_snapshot") gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "inquiries_search_trgm_idx" ON "inquiries" USING gin (
      lower("name" || ' ' || "email" || ' ' || coalesce("company", '')) gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "newsletter_subscriptions_email_trgm_idx" ON "newsletter_subscriptions" USING gin (
      lower("email") gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "orders_billing_search_trgm_idx" ON "orders" USING gin (
      lower(coalesce("billing_organisation", '') || ' ' || coalesce("po_number", '')) gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "order_students_search_trgm_idx" ON "order_students" USING gin (
      lower("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops
    );
    CREATE INDEX IF NOT EXISTS "email_outbox_to_address_trgm_idx" ON "email_outbox" USING gin (
      lower("to_address") gin_trgm_ops
    );
  END IF;
END $$;
