ALTER TABLE "licences" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
-- Quotes and licences erased before this column existed.
UPDATE "quotes" SET "anonymised_at" = "updated_at" WHERE "contact_email" LIKE '%@erased.invalid';--> statement-breakpoint
UPDATE "licences" SET "anonymised_at" = "updated_at" WHERE "contact_email" LIKE '%@erased.invalid';
