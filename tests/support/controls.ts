/** A No-Go or Sensitive topic with its canned response or disclaimer, as PUT /v1/controls takes it. */
export const topicControl = (
  type: "no_go_topics" | "sensitive_topics",
  topic: string,
  disclaimer: string,
  triggerPoint = "",
) => ({ internal_name: type, prompt_input_raw: topic, metadata: { disclaimer }, trigger_point: triggerPoint });
