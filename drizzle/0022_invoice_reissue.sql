DROP INDEX "order_documents_one_invoice_per_order_idx";--> statement-breakpoint
ALTER TABLE "order_documents" ADD COLUMN "replaces_document_id" uuid;--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_replaces_document_id_order_documents_id_fk" FOREIGN KEY ("replaces_document_id") REFERENCES "public"."order_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_replaced_once_idx" ON "order_documents" USING btree ("replaces_document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_one_invoice_per_order_idx" ON "order_documents" USING btree ("order_id") WHERE "order_documents"."kind" in ('invoice', 'receipt') and "order_documents"."replaces_document_id" is null;--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_replaces_invoice" CHECK ("order_documents"."replaces_document_id" is null or "order_documents"."kind" in ('invoice', 'receipt'));