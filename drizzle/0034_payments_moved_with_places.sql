ALTER TABLE "order_payments" DROP CONSTRAINT "order_payments_amount_positive";--> statement-breakpoint
ALTER TABLE "order_payments" DROP CONSTRAINT "order_payments_method";--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_amount_positive" CHECK ("order_payments"."amount_cents" > 0 or ("order_payments"."method" = 'transfer' and "order_payments"."amount_cents" <> 0));--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_method" CHECK ("order_payments"."method" in ('bank_transfer', 'card', 'cheque', 'other', 'transfer'));