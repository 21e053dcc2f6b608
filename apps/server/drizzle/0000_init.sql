CREATE TABLE "catalogue_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "object_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"component_id" integer NOT NULL,
	"name" text NOT NULL,
	"combined" boolean DEFAULT false NOT NULL,
	"img" text
);
--> statement-breakpoint
CREATE TABLE "object_papers" (
	"id" serial PRIMARY KEY NOT NULL,
	"component_id" integer NOT NULL,
	"name" text NOT NULL,
	"img" text,
	"min_page_count" integer,
	"max_page_count" integer
);
--> statement-breakpoint
CREATE TABLE "option_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "option_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text,
	"img" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"price_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"property_config_id" integer NOT NULL,
	"min_quantity" integer DEFAULT 1 NOT NULL,
	"amount" numeric(12, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_components" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"uuid" text NOT NULL,
	"name" text NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"error" double precision DEFAULT 0 NOT NULL,
	"error_type" text DEFAULT 'mm' NOT NULL,
	"auto_orientation_detection" boolean DEFAULT false NOT NULL,
	"resolution_threshold" integer DEFAULT 0 NOT NULL,
	"resolution_limit" integer,
	"template_file_name" text,
	"template_path" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"product_image" text,
	"page_count" integer DEFAULT 1 NOT NULL,
	"min_number_of_pages" integer,
	"max_number_of_pages" integer,
	"cancelled" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "property_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"number" text NOT NULL,
	"sku" text NOT NULL,
	"sku_number" text NOT NULL,
	"option_value_ids" jsonb NOT NULL,
	"saleable" boolean DEFAULT true NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"jhi_default" boolean DEFAULT false NOT NULL,
	"min_page_count" integer,
	"max_page_count" integer,
	"custom_toning" boolean DEFAULT false NOT NULL,
	"toning" text DEFAULT 'None' NOT NULL,
	"component_sizes" jsonb
);
--> statement-breakpoint
CREATE TABLE "customer_hubs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"batch_address_parsing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"contact" text NOT NULL,
	"phone" text NOT NULL,
	"province" text NOT NULL,
	"city" text NOT NULL,
	"district" text NOT NULL,
	"address" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_products" (
	"hub_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	CONSTRAINT "hub_products_hub_id_product_id_pk" PRIMARY KEY("hub_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"password_hash" text NOT NULL,
	"customer_id" integer NOT NULL,
	"hub_id" integer NOT NULL,
	"authorities" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_cities" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"province_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_districts" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"city_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_provinces" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"path" text NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text,
	"meta" jsonb,
	"original_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"folder_id" text NOT NULL,
	"identifier" text NOT NULL,
	"file_path" text NOT NULL,
	"size" bigint NOT NULL,
	"chunk_total" integer NOT NULL,
	"received_chunks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "works" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"article_name" text NOT NULL,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"files" jsonb NOT NULL,
	"page_count" integer NOT NULL,
	"state" text DEFAULT 'unmatch' NOT NULL,
	"product_id" integer,
	"property_config_id" integer,
	"check_result" jsonb,
	"check_passed" boolean,
	"add_page_num" integer,
	"file_area" double precision,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "long_tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"delivery_method" text NOT NULL,
	"location" jsonb,
	"total_amount" numeric(14, 2) NOT NULL,
	"answer" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"hub_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"sales_order_number" text NOT NULL,
	"work_uuid" uuid NOT NULL,
	"article_name" text NOT NULL,
	"file_name" text NOT NULL,
	"file_path" text NOT NULL,
	"files" jsonb NOT NULL,
	"product_id" integer NOT NULL,
	"product_name" text NOT NULL,
	"property_config_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"page_count" integer NOT NULL,
	"add_page_num" integer DEFAULT 0 NOT NULL,
	"unit_price" numeric(12, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"toning" text DEFAULT 'None' NOT NULL,
	"custom_toning" text,
	"delivery_method" text NOT NULL,
	"order_locations" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "object_operations" ADD CONSTRAINT "object_operations_component_id_product_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."product_components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_papers" ADD CONSTRAINT "object_papers_component_id_product_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."product_components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "option_items" ADD CONSTRAINT "option_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "option_values" ADD CONSTRAINT "option_values_item_id_option_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."option_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_lines" ADD CONSTRAINT "price_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_lines" ADD CONSTRAINT "price_lines_property_config_id_property_configs_id_fk" FOREIGN KEY ("property_config_id") REFERENCES "public"."property_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_components" ADD CONSTRAINT "product_components_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_product_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."product_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_configs" ADD CONSTRAINT "property_configs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_locations" ADD CONSTRAINT "customer_locations_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_locations" ADD CONSTRAINT "customer_locations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_products" ADD CONSTRAINT "hub_products_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_products" ADD CONSTRAINT "hub_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_cities" ADD CONSTRAINT "location_cities_province_id_location_provinces_id_fk" FOREIGN KEY ("province_id") REFERENCES "public"."location_provinces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_districts" ADD CONSTRAINT "location_districts_city_id_location_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."location_cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "works" ADD CONSTRAINT "works_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_tasks" ADD CONSTRAINT "long_tasks_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_batches" ADD CONSTRAINT "order_batches_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_hub_id_customer_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."customer_hubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_batch_id_order_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."order_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_lines_lookup_idx" ON "price_lines" USING btree ("price_type","entity_id","property_config_id");--> statement-breakpoint
CREATE INDEX "product_components_product_idx" ON "product_components" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_number_uq" ON "products" USING btree ("number");--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "property_configs_number_uq" ON "property_configs" USING btree ("number");--> statement-breakpoint
CREATE INDEX "property_configs_product_idx" ON "property_configs" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "customer_locations_hub_idx" ON "customer_locations" USING btree ("hub_id");--> statement-breakpoint
CREATE INDEX "customers_hub_idx" ON "customers" USING btree ("hub_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_uq" ON "users" USING btree ("login");--> statement-breakpoint
CREATE INDEX "location_cities_province_idx" ON "location_cities" USING btree ("province_id");--> statement-breakpoint
CREATE INDEX "location_districts_city_idx" ON "location_districts" USING btree ("city_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stored_files_path_uq" ON "stored_files" USING btree ("hub_id","path");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_identity_uq" ON "uploads" USING btree ("hub_id","folder_id","identifier");--> statement-breakpoint
CREATE INDEX "uploads_updated_idx" ON "uploads" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "works_hub_idx" ON "works" USING btree ("hub_id","file_path");--> statement-breakpoint
CREATE INDEX "long_tasks_claim_idx" ON "long_tasks" USING btree ("status","locked_until");--> statement-breakpoint
CREATE UNIQUE INDEX "order_batches_key_uq" ON "order_batches" USING btree ("hub_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_orders_number_uq" ON "sales_orders" USING btree ("sales_order_number");--> statement-breakpoint
CREATE INDEX "sales_orders_hub_idx" ON "sales_orders" USING btree ("hub_id","created_at");--> statement-breakpoint
CREATE INDEX "sales_orders_file_idx" ON "sales_orders" USING btree ("hub_id","file_name");