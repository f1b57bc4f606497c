CREATE TABLE "form_submissions" (
	"form" text NOT NULL,
	"key_hash" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_submissions_form_key_hash_pk" PRIMARY KEY("form","key_hash")
);
--> statement-breakpoint
CREATE INDEX "form_submissions_created_at_idx" ON "form_submissions" USING btree ("created_at");