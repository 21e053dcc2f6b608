CREATE TABLE "login_failures" (
	"login" text NOT NULL,
	"address" text NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_failures_login_address_pk" PRIMARY KEY("login","address")
);
--> statement-breakpoint
CREATE INDEX "login_failures_window_idx" ON "login_failures" USING btree ("window_start");