CREATE TABLE "licence_reminders" (
	"licence_id" uuid NOT NULL,
	"days_before" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licence_reminders_licence_id_days_before_pk" PRIMARY KEY("licence_id","days_before")
);
--> statement-breakpoint
CREATE TABLE "licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"organisation" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text NOT NULL,
	"seats" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"annual_net_cents" integer NOT NULL,
	"quote_id" uuid,
	"order_id" uuid,
	"renewal_quote_id" uuid,
	"renewed_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licences_reference_unique" UNIQUE("reference"),
	CONSTRAINT "licences_quote_id_unique" UNIQUE("quote_id"),
	CONSTRAINT "licences_seats_positive" CHECK ("licences"."seats" >= 1),
	CONSTRAINT "licences_dates" CHECK ("licences"."ends_on" >= "licences"."starts_on")
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "licence_seats" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "licence_starts_on" date;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "renews_licence_id" uuid;--> statement-breakpoint
ALTER TABLE "licence_reminders" ADD CONSTRAINT "licence_reminders_licence_id_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_renewal_quote_id_quotes_id_fk" FOREIGN KEY ("renewal_quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_renewed_by_id_licences_id_fk" FOREIGN KEY ("renewed_by_id") REFERENCES "public"."licences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licences_ends_on_idx" ON "licences" USING btree ("ends_on");--> statement-breakpoint
CREATE INDEX "licences_contact_email_lower_idx" ON "licences" USING btree (lower(trim("contact_email")));--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_renews_licence_id_licences_id_fk" FOREIGN KEY ("renews_licence_id") REFERENCES "public"."licences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_licence_seats_positive" CHECK ("quotes"."licence_seats" >= 1);