CREATE TYPE "public"."document_kind" AS ENUM('invoice', 'receipt', 'credit_note');--> statement-breakpoint
CREATE TABLE "document_sequences" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "document_sequences_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "order_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" "document_kind" NOT NULL,
	"number" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"net_amount_cents" integer NOT NULL,
	"vat_amount_cents" integer NOT NULL,
	"total_amount_cents" integer NOT NULL,
	"credits_document_id" uuid,
	"reason" text,
	"issued_by" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	CONSTRAINT "order_documents_number_unique" UNIQUE("number"),
	CONSTRAINT "order_documents_amounts_match" CHECK ("order_documents"."net_amount_cents" + "order_documents"."vat_amount_cents" = "order_documents"."total_amount_cents" and "order_documents"."total_amount_cents" >= 0),
	CONSTRAINT "order_documents_credit_note_credits" CHECK (("order_documents"."kind" = 'credit_note') = ("order_documents"."credits_document_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"stripe_refund_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"credit_note_id" uuid,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_refunds_stripe_refund_id_unique" UNIQUE("stripe_refund_id"),
	CONSTRAINT "order_refunds_amount_positive" CHECK ("order_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_matches";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "net_amount_cents" integer;--> statement-breakpoint
-- Orders placed before VAT was recorded: no VAT, the net is the total.
UPDATE "orders" SET "net_amount_cents" = "total_amount_cents";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "net_amount_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_amount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_rate_basis_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prices_include_vat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_amount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_organisation" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address_line1" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address_line2" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_town" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_postcode" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_vat_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stripe_payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_credits_document_id_order_documents_id_fk" FOREIGN KEY ("credits_document_id") REFERENCES "public"."order_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_credit_note_id_order_documents_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."order_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_documents_order_id_idx" ON "order_documents" USING btree ("order_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_one_invoice_per_order_idx" ON "order_documents" USING btree ("order_id") WHERE "order_documents"."kind" in ('invoice', 'receipt');--> statement-breakpoint
CREATE INDEX "order_events_order_id_created_at_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_order_id_idx" ON "order_refunds" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_document_id_order_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."order_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_match" CHECK ("orders"."net_amount_cents" + "orders"."vat_amount_cents" = "orders"."total_amount_cents" and "orders"."vat_amount_cents" >= 0 and case when "orders"."prices_include_vat" then "orders"."total_amount_cents" else "orders"."net_amount_cents" end = "orders"."unit_price_cents" * "orders"."quantity");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_within_total" CHECK ("orders"."refunded_amount_cents" between 0 and "orders"."total_amount_cents");--> statement-breakpoint
-- Invoices, receipts and credit notes are never edited or deleted: a mistake is put right by a
-- credit note, as HMRC expects.
CREATE FUNCTION "order_documents_are_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'order_documents rows are final: issue a credit note instead'
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "order_documents_no_update_or_delete" BEFORE UPDATE OR DELETE ON "order_documents"
  FOR EACH ROW EXECUTE FUNCTION "order_documents_are_final"();
