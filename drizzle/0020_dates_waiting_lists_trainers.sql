CREATE TYPE "public"."waiting_list_state" AS ENUM('waiting', 'offered', 'booked', 'expired', 'removed', 'notified');--> statement-breakpoint
CREATE TABLE "about_profile" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"story" text,
	"accreditations" text,
	"partner_bodies" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "about_profile_single_row" CHECK ("about_profile"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "course_date_reminders" (
	"course_date_id" uuid NOT NULL,
	"days_before" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_date_reminders_course_date_id_days_before_starts_at_pk" PRIMARY KEY("course_date_id","days_before","starts_at")
);
--> statement-breakpoint
CREATE TABLE "course_trainers" (
	"course_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "course_trainers_course_id_trainer_id_pk" PRIMARY KEY("course_id","trainer_id")
);
--> statement-breakpoint
CREATE TABLE "trainers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"role" text,
	"bio" text,
	"credentials" text,
	"photo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waiting_list_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"course_date_id" uuid,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"organisation" text,
	"places" integer DEFAULT 1 NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"state" "waiting_list_state" DEFAULT 'waiting' NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"offer_token_hash" text,
	"order_id" uuid,
	"spam_reason" "spam_reason",
	"anonymised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waiting_list_entries_offer_token_hash_unique" UNIQUE("offer_token_hash"),
	CONSTRAINT "waiting_list_places_range" CHECK ("waiting_list_entries"."places" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "course_dates" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "audience" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "learning_outcomes" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "prerequisites" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "format_details" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "cpd_hours" numeric(4, 1);--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "calendar" text;--> statement-breakpoint
ALTER TABLE "course_date_reminders" ADD CONSTRAINT "course_date_reminders_course_date_id_course_dates_id_fk" FOREIGN KEY ("course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_trainers" ADD CONSTRAINT "course_trainers_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_trainers" ADD CONSTRAINT "course_trainers_trainer_id_trainers_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."trainers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_course_date_id_course_dates_id_fk" FOREIGN KEY ("course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_trainers_trainer_idx" ON "course_trainers" USING btree ("trainer_id");--> statement-breakpoint
CREATE INDEX "waiting_list_date_state_idx" ON "waiting_list_entries" USING btree ("course_date_id","state","created_at");--> statement-breakpoint
CREATE INDEX "waiting_list_course_idx" ON "waiting_list_entries" USING btree ("course_id","state");--> statement-breakpoint
CREATE INDEX "waiting_list_email_lower_idx" ON "waiting_list_entries" USING btree (lower(trim("email")));--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_cpd_hours_non_negative" CHECK ("courses"."cpd_hours" >= 0);