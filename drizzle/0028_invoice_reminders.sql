CREATE TABLE "invoice_reminders" (
	"invoice_id" uuid NOT NULL,
	"days_after_due" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reminders_invoice_id_days_after_due_pk" PRIMARY KEY("invoice_id","days_after_due"),
	CONSTRAINT "invoice_reminders_days" CHECK ("invoice_reminders"."days_after_due" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_reminders_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_invoice_id_order_documents_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."order_documents"("id") ON DELETE restrict ON UPDATE no action;