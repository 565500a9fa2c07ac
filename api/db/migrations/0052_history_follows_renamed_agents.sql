-- An agent's site code (its trigger point) changed: its settings, questions, runs and conversations
-- moved to the new code, but History's changes of it stayed filed under the old one. A revert of one
-- of them read the old code's settings (none) and answered "Nothing to revert" while the change stood
-- under the new code, a restore was refused as naming no trigger point of the client, and the lines
-- named the agent by its old code. A rename now moves them too (api/agents/site-code-rename.ts); this
-- moves those of the renames made before, each rename in the order it was made, over the changes
-- recorded before it (a code a later agent took again keeps that agent's changes).
DO $$
DECLARE
  rename record;
BEGIN
  FOR rename IN
    SELECT "id", "app_id", "before"->>'site_code' AS "from_code", "after"->>'site_code' AS "to_code"
    FROM "config_changes"
    WHERE "kind" = 'agent'
      AND coalesce("before"->>'site_code', '') <> ''
      AND coalesce("after"->>'site_code', '') <> ''
      AND "before"->>'site_code' <> "after"->>'site_code'
    ORDER BY "id"
  LOOP
    UPDATE "config_changes" SET
      "target" = CASE
        WHEN "kind" IN ('controls', 'smart_probing', 'input_prompts') AND "target" = rename."from_code" THEN rename."to_code"
        WHEN "kind" = 'appearance' AND "target" IN ('stage/' || rename."from_code", 'prod/' || rename."from_code")
          THEN split_part("target", '/', 1) || '/' || rename."to_code"
        ELSE "target"
      END,
      "before" = CASE
        WHEN jsonb_typeof("before") = 'array' THEN (
          SELECT coalesce(jsonb_agg(CASE WHEN "items"."item"->>'trigger_point' = rename."from_code"
            THEN jsonb_set("items"."item", '{trigger_point}', to_jsonb(rename."to_code")) ELSE "items"."item" END ORDER BY "items"."place"), '[]'::jsonb)
          FROM jsonb_array_elements("config_changes"."before") WITH ORDINALITY AS "items"("item", "place"))
        WHEN jsonb_typeof("before") = 'object' AND "before"->>'trigger_point' = rename."from_code"
          THEN jsonb_set("before", '{trigger_point}', to_jsonb(rename."to_code"))
        ELSE "before"
      END,
      "after" = CASE
        WHEN jsonb_typeof("after") = 'array' THEN (
          SELECT coalesce(jsonb_agg(CASE WHEN "items"."item"->>'trigger_point' = rename."from_code"
            THEN jsonb_set("items"."item", '{trigger_point}', to_jsonb(rename."to_code")) ELSE "items"."item" END ORDER BY "items"."place"), '[]'::jsonb)
          FROM jsonb_array_elements("config_changes"."after") WITH ORDINALITY AS "items"("item", "place"))
        WHEN jsonb_typeof("after") = 'object' AND "after"->>'trigger_point' = rename."from_code"
          THEN jsonb_set("after", '{trigger_point}', to_jsonb(rename."to_code"))
        ELSE "after"
      END
    WHERE "app_id" = rename."app_id"
      AND "id" < rename."id"
      AND "kind" IN ('controls', 'smart_probing', 'input_prompts', 'appearance', 'finetuning', 'test_questions')
      AND (
        ("kind" NOT IN ('finetuning', 'test_questions')
          AND "target" IN (rename."from_code", 'stage/' || rename."from_code", 'prod/' || rename."from_code"))
        OR jsonb_path_exists(coalesce("before", 'null'::jsonb), '$[*].trigger_point ? (@ == $point)', jsonb_build_object('point', rename."from_code"))
        OR jsonb_path_exists(coalesce("after", 'null'::jsonb), '$[*].trigger_point ? (@ == $point)', jsonb_build_object('point', rename."from_code"))
      );
  END LOOP;
END $$;
