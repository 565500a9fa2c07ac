import type { LlmConfig } from "../config";
import type { AssistantControls } from "../controls/runtime";
import type { SearchHit } from "../knowledge/index/search";
import { chatCompletion } from "../llm/chat-completion";

/**
 * The operator's User Probing Guidelines, for the model: what to learn about the visitor, and
 * which topic to ask about when. A quoted answer cannot ask anything, so only a model reads them.
 */
function probingInstructions(probing: AssistantControls["probing"]) {
  return [
    probing.topics.trim() &&
      `After answering, you may ask the visitor about one of these topics, when it fits the conversation:\n${probing.topics.trim()}`,
    probing.mapping.trim() &&
      `Which topic to ask about, depending on what the visitor asked:\n${probing.mapping.trim()}`,
  ].filter(Boolean) as string[];
}

/**
 * What a model reads, in characters of passages (about 3,000 tokens): the quoted passage, then
 * retrieval's passages in order while they fit. A cost choice: on the SQuAD development set this
 * holds the answer for 99.0 % of the confirming half's questions (93.8 % of the tuning half's),
 * the three passages an answer cites by default for 97.0 % (decision 018).
 */
const MODEL_CONTEXT_CHARS = 12_000;

/**
 * The quoted passage first, then the rest of retrieval's passages in their order, within the
 * model's budget. A passage that AI Finetuning penalised to nothing stays out, as it does of the
 * quality check's passages.
 */
export function modelContext(lead: SearchHit, hits: SearchHit[]) {
  const context = [lead];
  let chars = lead.text.length;
  for (const hit of hits) {
    if (hit.chunkId === lead.chunkId || hit.score <= 0) continue;
    if (chars + hit.text.length > MODEL_CONTEXT_CHARS) break;
    context.push(hit);
    chars += hit.text.length;
  }
  return context;
}

/** A citation marker as models write them: "[2]", or several numbers in one, "[1, 3]". */
const CITATION = /\s?\[(\d+(?:\s*,\s*\d+)*)\]/g;

/**
 * A model's answer with its citations made to match the sources listed: the passages it cites, in
 * the order it first cites them and at most `maxSources` of them, numbered [1], [2]… in that order.
 * A number naming no passage, or a passage beyond the maximum, is dropped from its marker, and a
 * marker left with none goes.
 */
export function citedInOrder(answer: string, passages: SearchHit[], maxSources: number) {
  const cited: number[] = [];
  for (const [, list] of answer.matchAll(CITATION)) {
    for (const n of list.split(",")) {
      const index = Number(n) - 1;
      if (index >= 0 && index < passages.length && !cited.includes(index) && cited.length < maxSources)
        cited.push(index);
    }
  }
  const text = answer.replace(CITATION, (marker, list: string) => {
    const numbers = list
      .split(",")
      .map((n) => cited.indexOf(Number(n) - 1) + 1)
      .filter((n, at, all) => n > 0 && all.indexOf(n) === at);
    return numbers.length ? `${marker.startsWith(" ") ? " " : ""}[${numbers.join(", ")}]` : "";
  });
  return { text, cited: cited.map((index) => passages[index]) };
}

/** What the model is told to reply when the passages do not answer the question. */
const DECLINED = "NO_ANSWER";

/**
 * The generative responder (with LLM_BASE_URL): an OpenAI-compatible model writes the answer from
 * the passages the extractive responder draws on, in the same order (the one holding the answering
 * sentence first), under the client's personality, input prompts and User Probing Guidelines. It
 * reads more passages than an answer may cite (the responder's context: the quoted passage, then
 * retrieval's within a budget), so that the passage holding the answer is far more often among them
 * (decision 018). It is told to cite at most `maxSources` of them by number; its citations are
 * renumbered to match the sources listed (`citedInOrder`). When the passages do not answer, it says
 * so with a fixed word and the answer is empty: the visitor gets the fallback message, and the
 * question counts as unanswered, rather than a model's "I don't know" shown with sources.
 */
export async function generateAnswer(
  llm: LlmConfig,
  question: string,
  passages: SearchHit[],
  controls: AssistantControls,
  programs: { name: string }[],
  maxSources: number,
) {
  // No passage: the Quality Check requires no source, and nothing in the store could be cited.
  const general = !passages.length;
  const instructions = [
    controls.personality,
    ...Object.entries(controls.inputPrompts).map(([key, prompt]) => `${key}: ${prompt}`),
    ...probingInstructions(controls.probing),
    ...(general
      ? [
          `Nothing in the organisation's published information answers this question. Answer from general knowledge, briefly, and only what you are sure of; if you cannot, reply with ${DECLINED} and nothing else.`,
          "Start with the sentence that answers the question; use one or two sentences unless the question asks for steps or a list.",
        ]
      : [
          `Answer only from the numbered passages. If they do not answer the question, reply with ${DECLINED} and nothing else.`,
          "Start with the sentence that answers the question; use one or two sentences unless the question asks for steps or a list.",
          `Cite the passages you use by their numbers in square brackets, like [1]; cite at most ${maxSources === 1 ? "one passage" : `${maxSources} passages`}.`,
        ]),
  ]
    .filter(Boolean)
    .join("\n\n");
  const context = passages
    .map((p, i) => `[${i + 1}] ${[p.title, ...p.headingPath].filter(Boolean).join(" › ")}\n${p.text}`)
    .join("\n\n");
  const programLine = programs.length ? `Programs that may fit: ${programs.map((p) => p.name).join(", ")}\n\n` : "";
  const answer = await chatCompletion(
    llm,
    [
      { role: "system", content: instructions },
      {
        role: "user",
        content: `${general ? "" : `Passages:\n${context}\n\n`}${programLine}Question: ${question}`,
      },
    ],
    { temperature: 0.2 },
  );
  // The passages did not answer: the responder gives the agent's fallback message, counted as unanswered.
  if (answer.replace(/[^A-Z_]/g, "") === DECLINED) return { text: "", cited: [] };
  return citedInOrder(answer, passages, maxSources);
}
