-- What each change wrote, where a revert writes back only that: History counted every later change
-- of a trigger point's controls as undone by a revert, though a revert of a No-Go save writes back
-- the No-Go list alone and leaves a later Quality Check change as it is. Null: the whole thing.
ALTER TABLE "config_changes" ADD COLUMN "written" text[];--> statement-breakpoint
-- The controls changes recorded so far: the control types whose part differs between before and
-- after, in the order of CONTROL_TYPES (as `writtenBy` in api/history/written.ts works it out).
UPDATE "config_changes" SET "written" = ARRAY(
  SELECT "type" FROM unnest(ARRAY['ai_personality_guidelines', 'sensitive_topics', 'no_go_topics', 'quality_check']) AS "type"
  WHERE jsonb_path_query_array(
      CASE WHEN jsonb_typeof("config_changes"."before") = 'array' THEN "config_changes"."before" ELSE '[]'::jsonb END,
      '$[*] ? (@.internal_name == $type)', jsonb_build_object('type', "type"))
    IS DISTINCT FROM jsonb_path_query_array(
      CASE WHEN jsonb_typeof("config_changes"."after") = 'array' THEN "config_changes"."after" ELSE '[]'::jsonb END,
      '$[*] ? (@.internal_name == $type)', jsonb_build_object('type', "type"))
) WHERE "kind" = 'controls';
