DROP INDEX "config_changes_app_at_idx";--> statement-breakpoint
CREATE INDEX "config_changes_app_kind_at_idx" ON "config_changes" USING btree ("app_id","kind","at","id");--> statement-breakpoint
CREATE INDEX "config_changes_app_user_at_idx" ON "config_changes" USING btree ("app_id","user_email","at","id");--> statement-breakpoint
CREATE INDEX "config_changes_app_at_idx" ON "config_changes" USING btree ("app_id","at","id");