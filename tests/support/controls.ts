/** A No-Go or Sensitive topic with its canned response or disclaimer, as PUT /v1/controls takes it. */
export const topicControl = (
  type: "no_go_topics" | "sensitive_topics",
  topic: string,
  disclaimer: string,
  triggerPoint = "",
) => ({ internal_name: type, prompt_input_raw: topic, metadata: { disclaimer }, trigger_point: triggerPoint });

/** The Quality Check at a threshold, its other settings the defaults' (a fallback of "Sorry."), as PUT /v1/controls takes it. */
export const qualityCheckControl = (minRetrievalConfidence: number, triggerPoint = "") => ({
  internal_name: "quality_check",
  metadata: {
    min_retrieval_confidence: minRetrievalConfidence,
    max_sources: 3,
    require_source: true,
    fallback_message: "Sorry.",
  },
  trigger_point: triggerPoint,
});

/** The user profile fields named (text, personal contact information), as the profile data model's save takes them. */
export const contactFields = (...names: string[]) => ({
  personalisation_config_details: names.map((name) => ({
    name,
    field_type: "text",
    group: "Personal Contact Information",
    model_type: "user_profile",
  })),
});
