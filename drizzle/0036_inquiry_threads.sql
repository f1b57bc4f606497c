CREATE TABLE "inquiry_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"inquiry_id" uuid NOT NULL,
	"author_id" text,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inquiry_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"inquiry_id" uuid NOT NULL,
	"submission_key" text NOT NULL,
	"author_id" text,
	"author" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inquiry_reply_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "inquiry_reply_templates_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "owner_id" text;--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "follow_up_on" date;--> statement-breakpoint
ALTER TABLE "inquiry_notes" ADD CONSTRAINT "inquiry_notes_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiry_replies" ADD CONSTRAINT "inquiry_replies_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiry_replies" ADD CONSTRAINT "inquiry_replies_email_id_email_outbox_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."email_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inquiry_notes_inquiry_created_at_idx" ON "inquiry_notes" USING btree ("inquiry_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inquiry_replies_submission_key_idx" ON "inquiry_replies" USING btree ("inquiry_id","submission_key");--> statement-breakpoint
CREATE INDEX "inquiry_replies_inquiry_created_at_idx" ON "inquiry_replies" USING btree ("inquiry_id","created_at");--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inquiries_owner_created_at_idx" ON "inquiries" USING btree ("owner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "inquiries"."owner_id" is not null;--> statement-breakpoint
-- The single notes field becomes the first note of each enquiry's list: nothing typed is lost.
INSERT INTO "inquiry_notes" ("inquiry_id", "author", "body", "created_at")
SELECT "id", 'staff', "notes", "updated_at" FROM "inquiries" WHERE coalesce(trim("notes"), '') <> '';--> statement-breakpoint
-- The composer's first templates; staff edit them on the Inquiries screen. {name} is the
-- enquirer's name.
INSERT INTO "inquiry_reply_templates" ("name", "subject", "body", "updated_by") VALUES
('Thank you: a few questions', 'Your enquiry to NightWatch', E'Dear {name},\n\nThank you for your enquiry. So that we can put together the right proposal, could you tell us a little more:\n\n- how many people would take part, and their roles;\n- where and when you would like the training or work to take place;\n- any deadline or budget we should work to.\n\nWe look forward to hearing from you.', 'system'),
('Training: proposal to follow', 'Your training enquiry', E'Dear {name},\n\nThank you for your interest in our counter-fraud training. We are preparing a proposal with dates, format and price for your team, and will send it to you shortly.\n\nIf it helps to talk it through, reply with a time that suits you and we will call.', 'system'),
('File Interrogator licence', 'Your File Interrogator licence enquiry', E'Dear {name},\n\nThank you for your interest in File Interrogator. Licences are annual, per user, and paid by invoice. We will send you a formal quote for the number of licences you need; once it is accepted we issue the licences and the invoice.\n\nPlease let us know the organisation and billing address the quote should be made out to.', 'system');
