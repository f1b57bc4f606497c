CREATE TYPE "public"."quote_status" AS ENUM('draft', 'sent', 'accepted', 'declined', 'expired', 'superseded');--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text,
	"status" "quote_status" DEFAULT 'draft' NOT NULL,
	"inquiry_id" uuid,
	"supersedes_id" uuid,
	"organisation" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text NOT NULL,
	"address_line1" text,
	"address_line2" text,
	"town" text,
	"postcode" text,
	"country" text,
	"vat_number" text,
	"supply" text NOT NULL,
	"lines" jsonb NOT NULL,
	"valid_until" date NOT NULL,
	"terms" text NOT NULL,
	"vat_treatment" text NOT NULL,
	"vat_rate_basis_points" integer NOT NULL,
	"net_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"snapshot" jsonb,
	"sent_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"accepted_name" text,
	"accepted_role" text,
	"po_number" text,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"order_id" uuid,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_number_unique" UNIQUE("number"),
	CONSTRAINT "quotes_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "quotes_amounts_match" CHECK ("quotes"."net_cents" + "quotes"."vat_cents" = "quotes"."total_cents"),
	CONSTRAINT "quotes_number_once_sent" CHECK (("quotes"."status" = 'draft') = ("quotes"."number" is null)),
	CONSTRAINT "quotes_supply" CHECK ("quotes"."supply" in ('classroom', 'live_online', 'on_demand'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_supersedes_id_quotes_id_fk" FOREIGN KEY ("supersedes_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_status_created_at_idx" ON "quotes" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "quotes_created_at_idx" ON "quotes" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "quotes_inquiry_id_idx" ON "quotes" USING btree ("inquiry_id");--> statement-breakpoint
CREATE INDEX "quotes_contact_email_lower_idx" ON "quotes" USING btree (lower(trim("contact_email")));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;