ALTER TABLE "user" ADD COLUMN "initial_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "two_factor_enrolled_at" timestamp with time zone;--> statement-breakpoint
-- Accounts that already have two-factor sign-in on have been through set-up.
UPDATE "user" SET "two_factor_enrolled_at" = now() WHERE "two_factor_enabled";