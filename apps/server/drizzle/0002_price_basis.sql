ALTER TABLE "price_lines" ADD COLUMN "kind" text DEFAULT 'unit' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_basis" text DEFAULT 'copy' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_unit" text;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD COLUMN "pricing" jsonb;