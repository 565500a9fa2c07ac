import type { LlmConfig } from "../config";

export interface ChatCompletionMessage {
  role: "system" | "user";
  content: string;
}

/**
 * One request to an OpenAI-compatible chat model (LLM_BASE_URL), answering the first choice's
 * text. Fails on an HTTP error, a timeout (LLM_TIMEOUT_MS) or an empty answer; callers fall back
 * to what they do without a model.
 */
export async function chatCompletion(
  llm: LlmConfig,
  messages: ChatCompletionMessage[],
  options: { temperature: number; json?: boolean },
) {
  const response = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
    signal: AbortSignal.timeout(llm.timeoutMs),
    body: JSON.stringify({
      model: llm.model,
      temperature: options.temperature,
      ...(options.json ? { response_format: { type: "json_object" } } : {}),
      messages,
    }),
  });
  if (!response.ok) throw new Error(`The language model answered HTTP ${response.status}`);
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  const text = body.choices?.[0]?.message?.content?.trim();
  if (!text) throw new Error("The language model gave no answer");
  return text;
}
