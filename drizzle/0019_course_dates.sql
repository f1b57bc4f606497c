CREATE TYPE "public"."course_date_format" AS ENUM('classroom', 'online');--> statement-breakpoint
CREATE TYPE "public"."course_date_state" AS ENUM('scheduled', 'cancelled', 'completed');--> statement-breakpoint
CREATE TABLE "course_dates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"schedule" text,
	"format" "course_date_format" NOT NULL,
	"venue_name" text,
	"venue_address" text,
	"venue_town" text,
	"joining_details" text,
	"capacity" integer NOT NULL,
	"price" numeric(10, 2),
	"booking_closes_at" timestamp with time zone NOT NULL,
	"state" "course_date_state" DEFAULT 'scheduled' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_dates_ends_after_start" CHECK ("course_dates"."ends_at" > "course_dates"."starts_at"),
	CONSTRAINT "course_dates_booking_closes_by_start" CHECK ("course_dates"."booking_closes_at" <= "course_dates"."starts_at"),
	CONSTRAINT "course_dates_capacity_range" CHECK ("course_dates"."capacity" between 1 and 1000),
	CONSTRAINT "course_dates_price_positive" CHECK ("course_dates"."price" is null or "course_dates"."price" > 0),
	CONSTRAINT "course_dates_classroom_has_venue" CHECK ("course_dates"."format" <> 'classroom' or "course_dates"."venue_name" is not null)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "course_date_id" uuid;--> statement-breakpoint
ALTER TABLE "course_dates" ADD CONSTRAINT "course_dates_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_dates_course_starts_idx" ON "course_dates" USING btree ("course_id","starts_at");--> statement-breakpoint
CREATE INDEX "course_dates_state_starts_idx" ON "course_dates" USING btree ("state","starts_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_course_date_id_course_dates_id_fk" FOREIGN KEY ("course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_course_date_live_idx" ON "orders" USING btree ("course_date_id","quantity") WHERE "orders"."course_date_id" is not null and "orders"."status" in ('pending', 'invoiced', 'paid');