CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"url_id" integer NOT NULL,
	"position" integer NOT NULL,
	"heading_path" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"text" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(text, ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "urls" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"website_id" integer NOT NULL,
	"url" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"sitemap_refresh_review_status" text,
	"refresh_days" integer,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"content_hash" text,
	"lastmod" text,
	"indexed_at" timestamp with time zone,
	"source_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "websites" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"url" text NOT NULL,
	"site_map" text DEFAULT 'full_website' NOT NULL,
	"status" text DEFAULT 'pending_sitemap_generation' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"skip_patterns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"allowed_patterns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seed_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sitemaps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"added_by" integer,
	"urls_count" integer DEFAULT 0 NOT NULL,
	"sitemap_diff" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_url_id_urls_id_fk" FOREIGN KEY ("url_id") REFERENCES "public"."urls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "urls" ADD CONSTRAINT "urls_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "urls" ADD CONSTRAINT "urls_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunks_url_idx" ON "chunks" USING btree ("url_id","position");--> statement-breakpoint
CREATE INDEX "chunks_app_idx" ON "chunks" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "chunks_tsv_idx" ON "chunks" USING gin ("tsv");--> statement-breakpoint
CREATE UNIQUE INDEX "urls_website_url_key" ON "urls" USING btree ("website_id","url");--> statement-breakpoint
CREATE INDEX "urls_filter_idx" ON "urls" USING btree ("app_id","website_id","status","sitemap_refresh_review_status","url");--> statement-breakpoint
CREATE INDEX "urls_app_status_idx" ON "urls" USING btree ("app_id","status","url");--> statement-breakpoint
CREATE INDEX "urls_app_url_idx" ON "urls" USING btree ("app_id","url");--> statement-breakpoint
CREATE INDEX "urls_url_trgm_idx" ON "urls" USING gin ("url" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "websites_app_idx" ON "websites" USING btree ("app_id","id");