import type { LlmConfig } from "../config";
import type { AssistantControls } from "../controls/runtime";
import type { SearchHit } from "../knowledge/search";
import { chatCompletion } from "../llm/chat-completion";

/**
 * The generative responder (with LLM_BASE_URL): an OpenAI-compatible model writes the answer from
 * the same passages the extractive responder would quote, under the client's personality and
 * input prompts. It is told to use the passages only; the sources shown are still the passages'.
 */
export async function generateAnswer(llm: LlmConfig, question: string, passages: SearchHit[], controls: AssistantControls, programs: { name: string }[]) {
  const instructions = [
    controls.personality,
    ...Object.entries(controls.inputPrompts).map(([key, prompt]) => `${key}: ${prompt}`),
    "Answer only from the numbered passages. If they do not answer the question, say you do not know. Keep answers short.",
  ].filter(Boolean).join("\n\n");
  const context = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.text}`).join("\n\n");
  return chatCompletion(llm, [
    { role: "system", content: instructions },
    { role: "user", content: `Passages:\n${context}${programs.length ? `\n\nPrograms that may fit: ${programs.map((p) => p.name).join(", ")}` : ""}\n\nQuestion: ${question}` },
  ], { temperature: 0.2 });
}
