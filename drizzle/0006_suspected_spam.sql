CREATE TYPE "public"."spam_reason" AS ENUM('honeypot', 'recipient_limit');--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "spam_reason" "spam_reason";--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "spam_reason" "spam_reason";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "spam_reason" "spam_reason";--> statement-breakpoint
CREATE INDEX "email_outbox_recipient_created_at_idx" ON "email_outbox" USING btree (lower("to_address"),"created_at");--> statement-breakpoint
CREATE INDEX "inquiries_spam_created_at_idx" ON "inquiries" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "inquiries"."spam_reason" is not null;--> statement-breakpoint
CREATE INDEX "newsletter_subscriptions_spam_subscribed_at_idx" ON "newsletter_subscriptions" USING btree ("subscribed_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "newsletter_subscriptions"."spam_reason" is not null;