ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "inquiries_email_lower_idx" ON "inquiries" USING btree (lower(trim("email")));--> statement-breakpoint
CREATE INDEX "order_students_email_lower_idx" ON "order_students" USING btree (lower(trim("email")));--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_buyer_email_lower_idx" ON "orders" USING btree (lower(trim("buyer_email")));--> statement-breakpoint
-- Orders paid before paid_at existed: dated from their first 'paid' event, else their creation (as
-- the Dashboard's revenue dated them until now).
UPDATE "orders" SET "paid_at" = coalesce(
  (SELECT min(e."created_at") FROM "order_events" e WHERE e."order_id" = "orders"."id" AND e."kind" = 'paid'),
  "orders"."created_at"
) WHERE "status" = 'paid' AND "paid_at" IS NULL;--> statement-breakpoint
-- The admin searches at volume, as trigram indexes where PostgreSQL has pg_trgm (migration 0004):
-- the Payments search by organisation or PO number and by student, and the privacy search's
-- look-up of stored e-mails by recipient. Same expressions as server/orders/admin.server.ts and
-- server/privacy/matching.server.ts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
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
