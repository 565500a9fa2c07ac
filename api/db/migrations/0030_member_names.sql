ALTER TABLE "app_users" ADD COLUMN "id" serial NOT NULL;--> statement-breakpoint
-- Every client keeps the name it already showed for its members; from now on a client names a person itself.
ALTER TABLE "app_users" ADD COLUMN "name" text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE "app_users" SET "name" = "users"."name" FROM "users" WHERE "users"."id" = "app_users"."user_id";--> statement-breakpoint
ALTER TABLE "app_users" ALTER COLUMN "name" DROP DEFAULT;--> statement-breakpoint
CREATE UNIQUE INDEX "app_users_id_key" ON "app_users" USING btree ("id");
