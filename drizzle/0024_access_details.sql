CREATE TABLE "access_details" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" text NOT NULL,
	"emailed" boolean NOT NULL,
	CONSTRAINT "access_details_position_range" CHECK ("access_details"."position" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "access_details" ADD CONSTRAINT "access_details_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_details_order_place_idx" ON "access_details" USING btree ("order_id","position");