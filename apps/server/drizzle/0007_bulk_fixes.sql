CREATE TABLE "file_fixes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"task_id" uuid,
	"work_uuid" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_path" text NOT NULL,
	"fixed_path" text,
	"status" text DEFAULT 'applied' NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "works" ADD COLUMN "resolution_accepted" jsonb;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD COLUMN "resolution_accepted" jsonb;--> statement-breakpoint
ALTER TABLE "file_fixes" ADD CONSTRAINT "file_fixes_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_fixes_task_idx" ON "file_fixes" USING btree ("hub_id","task_id");--> statement-breakpoint
CREATE INDEX "file_fixes_work_idx" ON "file_fixes" USING btree ("hub_id","work_uuid");