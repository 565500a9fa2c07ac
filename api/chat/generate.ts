import type { LlmConfig } from "../config";
import type { AssistantControls } from "../controls/runtime";
import type { SearchHit } from "../knowledge/search";
import { chatCompletion } from "../llm/chat-completion";

/**
 * The operator's User Probing Guidelines, for the model: what to learn about the visitor, and
 * which topic to ask about when. A quoted answer cannot ask anything, so only a model reads them.
 */
function probingInstructions(probing: AssistantControls["probing"]) {
  return [
    probing.topics.trim() && `After answering, you may ask the visitor about one of these topics, when it fits the conversation:\n${probing.topics.trim()}`,
    probing.mapping.trim() && `Which topic to ask about, depending on what the visitor asked:\n${probing.mapping.trim()}`,
  ].filter(Boolean) as string[];
}

/**
 * The generative responder (with LLM_BASE_URL): an OpenAI-compatible model writes the answer from
 * the same passages the extractive responder draws on, in the same order (the one holding the
 * answering sentence first), under the client's personality, input prompts and User Probing
 * Guidelines. It is told to use the passages only and to cite them by number, [1] being the first
 * source the answer lists; numbers that name no passage are dropped from its answer.
 */
export async function generateAnswer(llm: LlmConfig, question: string, passages: SearchHit[], controls: AssistantControls, programs: { name: string }[]) {
  const instructions = [
    controls.personality,
    ...Object.entries(controls.inputPrompts).map(([key, prompt]) => `${key}: ${prompt}`),
    ...probingInstructions(controls.probing),
    "Answer only from the numbered passages. If they do not answer the question, say you do not know.",
    "Start with the sentence that answers the question; use one or two sentences unless the question asks for steps or a list.",
    "Cite the passages you use by their numbers in square brackets, like [1].",
  ].filter(Boolean).join("\n\n");
  const context = passages.map((p, i) => `[${i + 1}] ${[p.title, ...p.headingPath].filter(Boolean).join(" › ")}\n${p.text}`).join("\n\n");
  const answer = await chatCompletion(llm, [
    { role: "system", content: instructions },
    { role: "user", content: `Passages:\n${context}${programs.length ? `\n\nPrograms that may fit: ${programs.map((p) => p.name).join(", ")}` : ""}\n\nQuestion: ${question}` },
  ], { temperature: 0.2 });
  return answer.replace(/\s?\[(\d+)\]/g, (marker, n: string) => (Number(n) >= 1 && Number(n) <= passages.length ? marker : ""));
}
