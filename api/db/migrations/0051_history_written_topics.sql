-- What each controls change wrote (migration 0045) compared topics with their row ids, so a topic
-- list an import wrote again under new rows, its topics the same, counted as written. History
-- compares a topic by its text and disclaimer (api/history/written.ts), and a revert writes back
-- only the controls that differ that way: a later change to such a list was said to go with a
-- revert that leaves it be. Worked out again for every controls change, topics without their ids.
UPDATE "config_changes" SET "written" = ARRAY(
  SELECT "types"."type" FROM unnest(ARRAY['ai_personality_guidelines', 'sensitive_topics', 'no_go_topics', 'quality_check']) WITH ORDINALITY AS "types"("type", "n")
  WHERE (
      SELECT coalesce(jsonb_agg(CASE WHEN "types"."type" IN ('sensitive_topics', 'no_go_topics') THEN "rows"."row" - 'id' ELSE "rows"."row" END ORDER BY "rows"."at"), '[]'::jsonb)
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof("config_changes"."before") = 'array' THEN "config_changes"."before" ELSE '[]'::jsonb END)
        WITH ORDINALITY AS "rows"("row", "at")
      WHERE "rows"."row"->>'internal_name' = "types"."type"
    ) IS DISTINCT FROM (
      SELECT coalesce(jsonb_agg(CASE WHEN "types"."type" IN ('sensitive_topics', 'no_go_topics') THEN "rows"."row" - 'id' ELSE "rows"."row" END ORDER BY "rows"."at"), '[]'::jsonb)
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof("config_changes"."after") = 'array' THEN "config_changes"."after" ELSE '[]'::jsonb END)
        WITH ORDINALITY AS "rows"("row", "at")
      WHERE "rows"."row"->>'internal_name' = "types"."type"
    )
  ORDER BY "types"."n"
) WHERE "kind" = 'controls';
