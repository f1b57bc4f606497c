CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"course_date_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"holder_name" text,
	"holder_email" text,
	"course_title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"cpd_hours" numeric(4, 1),
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" text NOT NULL,
	"pdf" "bytea",
	"sha256" text,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"revocation_reason" text,
	"erased_at" timestamp with time zone,
	CONSTRAINT "certificates_number_unique" UNIQUE("number"),
	CONSTRAINT "certificates_position_range" CHECK ("certificates"."position" between 1 and 10),
	CONSTRAINT "certificates_revocation_complete" CHECK (("certificates"."revoked_at" is null) = ("certificates"."revoked_by" is null))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "certificate_id" uuid;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_course_date_id_course_dates_id_fk" FOREIGN KEY ("course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_one_valid_per_place_idx" ON "certificates" USING btree ("course_date_id","order_id","position") WHERE "certificates"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "certificates_order_idx" ON "certificates" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "certificates_holder_email_idx" ON "certificates" USING btree (lower(trim("holder_email")));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;