DROP INDEX "courses_status_created_at_idx";--> statement-breakpoint
CREATE INDEX "courses_status_created_at_idx" ON "courses" USING btree ("status","created_at" DESC NULLS FIRST);