CREATE TYPE "public"."attendance_status" AS ENUM('present', 'absent', 'partial');--> statement-breakpoint
CREATE TABLE "attendance" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_date_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"status" "attendance_status" NOT NULL,
	"marked_by" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_position_range" CHECK ("attendance"."position" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_course_date_id_course_dates_id_fk" FOREIGN KEY ("course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_date_place_idx" ON "attendance" USING btree ("course_date_id","order_id","position");--> statement-breakpoint
CREATE INDEX "attendance_order_idx" ON "attendance" USING btree ("order_id");