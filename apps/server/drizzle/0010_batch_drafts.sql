CREATE TABLE "batch_drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"document" text NOT NULL,
	"bytes" integer NOT NULL,
	"closed_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_drafts" ADD CONSTRAINT "batch_drafts_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_drafts" ADD CONSTRAINT "batch_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_drafts_open_uq" ON "batch_drafts" USING btree ("user_id") WHERE "batch_drafts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "batch_drafts_hub_idx" ON "batch_drafts" USING btree ("hub_id");