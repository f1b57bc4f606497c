CREATE TABLE "order_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"received_on" date NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"stripe_checkout_session_id" text,
	"form_nonce" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_payments_stripe_checkout_session_id_unique" UNIQUE("stripe_checkout_session_id"),
	CONSTRAINT "order_payments_form_nonce_unique" UNIQUE("form_nonce"),
	CONSTRAINT "order_payments_amount_positive" CHECK ("order_payments"."amount_cents" > 0),
	CONSTRAINT "order_payments_method" CHECK ("order_payments"."method" in ('bank_transfer', 'card', 'cheque', 'other'))
);
--> statement-breakpoint
ALTER TABLE "order_refunds" ALTER COLUMN "stripe_refund_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "method" text DEFAULT 'stripe' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "refunded_on" date;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "form_nonce" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "received_amount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_payments_order_id_idx" ON "order_payments" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_form_nonce_unique" UNIQUE("form_nonce");--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_method" CHECK (case when "order_refunds"."method" = 'stripe' then "order_refunds"."stripe_refund_id" is not null else "order_refunds"."method" in ('bank_transfer', 'cheque', 'other') and "order_refunds"."stripe_refund_id" is null and "order_refunds"."refunded_on" is not null end);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_received_non_negative" CHECK ("orders"."received_amount_cents" >= 0);--> statement-breakpoint
-- Invoice orders paid before payments were itemised: one payment of the total, on the UK date they were marked paid.
INSERT INTO "order_payments" ("order_id", "amount_cents", "received_on", "method", "reference", "actor", "created_at")
SELECT "id", "total_amount_cents", (coalesce("paid_at", "updated_at") at time zone 'Europe/London')::date, 'other', 'Marked paid before payments were itemised', 'system', coalesce("paid_at", "updated_at")
FROM "orders" WHERE "payment_method" = 'invoice' AND "status" = 'paid' AND "total_amount_cents" > 0;--> statement-breakpoint
UPDATE "orders" SET "received_amount_cents" = "total_amount_cents" WHERE "payment_method" = 'invoice' AND "status" = 'paid';
