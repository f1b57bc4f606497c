CREATE TABLE "move_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"to_course_date_id" uuid NOT NULL,
	"places" integer[] NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "move_requests_state" CHECK ("move_requests"."state" in ('requested', 'approved', 'declined', 'withdrawn')),
	CONSTRAINT "move_requests_places" CHECK (cardinality("move_requests"."places") between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "move_requests" ADD CONSTRAINT "move_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_requests" ADD CONSTRAINT "move_requests_to_course_date_id_course_dates_id_fk" FOREIGN KEY ("to_course_date_id") REFERENCES "public"."course_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "move_requests_one_open_per_order_idx" ON "move_requests" USING btree ("order_id") WHERE "move_requests"."state" = 'requested';