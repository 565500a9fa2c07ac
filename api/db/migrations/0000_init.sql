CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"agent_type" text DEFAULT 'enrollment' NOT NULL,
	"site_code" text DEFAULT '' NOT NULL,
	"logo" text,
	"url" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"mode_env" text DEFAULT 'staging' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_users" (
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'client_user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_users_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "client_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_name" text NOT NULL,
	"primary_website" text DEFAULT '' NOT NULL,
	"logo_url" text,
	"country" text DEFAULT '' NOT NULL,
	"market" text DEFAULT '' NOT NULL,
	"project_url" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"url_code" text NOT NULL,
	"copy_market" text DEFAULT '' NOT NULL,
	"client_type" text DEFAULT '' NOT NULL,
	"onboard_existing_client" boolean DEFAULT true NOT NULL,
	"trigger_points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mode_env" text DEFAULT 'staging' NOT NULL,
	"insync_prod_app_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"user_type" text DEFAULT 'user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_users" ADD CONSTRAINT "app_users_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_users" ADD CONSTRAINT "app_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_app_idx" ON "agents" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "app_users_user_idx" ON "app_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_apps_url_code_key" ON "client_apps" USING btree ("url_code");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_key" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");