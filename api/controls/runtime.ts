import { and, asc, eq, inArray } from "drizzle-orm";
import { AI_PERSONALITY, DEFAULT_TRIGGER_POINT, QUALITY_CHECK, type QualityCheckSettings } from "@contract";
import { controlTopics, inputPrompts } from "../db/schema";
import type { ApiDeps } from "../deps";
import { QUOTABLE_SHARE } from "../chat/answer-confidence";
import type { SearchHit } from "../knowledge/index/search";
import { singleControls } from "./controls";
import { promptKey } from "./input-prompts";
import { clientScope } from "./scope";
import { listProbings } from "./probings";

/**
 * Where a topic that applies is set: Default's list (`fromDefault`, under another trigger point),
 * or the trigger point's own. A trace names it, so the operator edits the list that holds it.
 */
interface TopicSource {
  fromDefault: boolean;
}

/** Everything the console configures that shapes one agent's answers. */
export interface AssistantControls {
  personality: string;
  /** Answer, and show the disclaimer with the answer. */
  sensitiveTopics: ({ topic: string; disclaimer: string } & TopicSource)[];
  /** Do not answer: say the canned response. */
  noGoTopics: ({ topic: string; cannedResponse: string } & TopicSource)[];
  qualityCheck: QualityCheckSettings;
  probing: { topics: string; mapping: string };
  inputPrompts: Record<string, string>;
}

/**
 * The settings one trigger point's assistant runs with, resolved the way the screens show them:
 * personality, quality check and probing texts from the trigger point, else Default, else the
 * built-in default; topic lists and input prompts are Default's plus the trigger point's own
 * (its own topic replacing Default's of the same topic, its own prompt a Default prompt of the same key). `known` spares the chat runtime a
 * second read of the client it has already read. Probing texts and input prompts are written into
 * a model's instructions and nothing else: without `forModel` they are not read, and come back empty.
 */
export async function assistantControls(
  appId: number,
  triggerPoint: string,
  deps: Pick<ApiDeps, "db">,
  known?: { clientType: string },
  { forModel = true } = {},
): Promise<AssistantControls> {
  const points = [...new Set([DEFAULT_TRIGGER_POINT, triggerPoint])];
  const clientType = known?.clientType ?? (await clientScope(appId, deps.db)).clientType;
  // Read together: each is a round trip, and none needs another's answer (on the embedded
  // database the thread runs them back to back; on PostgreSQL they take a connection each).
  const [singles, topics, probing, prompts] = await Promise.all([
    singleControls(appId, triggerPoint, [AI_PERSONALITY, QUALITY_CHECK], clientType, deps.db),
    deps.db
      .select()
      .from(controlTopics)
      .where(and(eq(controlTopics.appId, appId), inArray(controlTopics.triggerPoint, points)))
      .orderBy(asc(controlTopics.id)),
    forModel ? listProbings(appId, triggerPoint, undefined, deps.db) : [],
    forModel
      ? deps.db
          .select()
          .from(inputPrompts)
          .where(and(eq(inputPrompts.appId, appId), inArray(inputPrompts.triggerPoint, points)))
          .orderBy(asc(inputPrompts.id))
      : [],
  ]);
  // The agent's prompt replaces Default's of the same key, read as the operator reads keys (any case).
  const byKey = new Map<string, { name: string; prompt: string }>();
  for (const prompt of [
    ...prompts.filter((p) => p.triggerPoint === DEFAULT_TRIGGER_POINT),
    ...prompts.filter((p) => p.triggerPoint !== DEFAULT_TRIGGER_POINT),
  ]) {
    byKey.set(promptKey(prompt.internalName), { name: prompt.internalName, prompt: prompt.promptInputRaw });
  }
  const promptMap = Object.fromEntries([...byKey.values()].map(({ name, prompt }) => [name, prompt]));
  // A topic the trigger point lists itself says its own text: Default's row of the same topic (any
  // case, as a list holds a topic once) gives way to it, and applies again once it is deleted.
  const list = (name: string) => {
    const rows = topics.filter((t) => t.internalName === name);
    const own = new Set(
      rows.filter((t) => t.triggerPoint !== DEFAULT_TRIGGER_POINT).map((t) => t.promptInputRaw.toLowerCase()),
    );
    return rows
      .filter((t) => t.triggerPoint !== DEFAULT_TRIGGER_POINT || !own.has(t.promptInputRaw.toLowerCase()))
      .map((t) => ({
        topic: t.promptInputRaw,
        text: String(t.metadata.disclaimer ?? ""),
        fromDefault: t.triggerPoint === DEFAULT_TRIGGER_POINT && triggerPoint !== DEFAULT_TRIGGER_POINT,
      }));
  };
  return {
    personality: singles.find((c) => c.internal_name === AI_PERSONALITY)!.prompt_input_raw,
    sensitiveTopics: list("sensitive_topics").map(({ topic, text, fromDefault }) => ({
      topic,
      disclaimer: text,
      fromDefault,
    })),
    noGoTopics: list("no_go_topics").map(({ topic, text, fromDefault }) => ({
      topic,
      cannedResponse: text,
      fromDefault,
    })),
    qualityCheck: singles.find((c) => c.internal_name === QUALITY_CHECK)!.metadata as QualityCheckSettings,
    probing: {
      topics: probing.find((p) => p.internal_name === "topics")?.prompt_input_raw ?? "",
      mapping: probing.find((p) => p.internal_name === "topic_to_prob_mapping")?.prompt_input_raw ?? "",
    },
    inputPrompts: promptMap,
  };
}

/**
 * The quality check, applied to retrieval results (best first) and the chance that an answer from
 * them is right (api/chat/answer-confidence.ts): the passages an answer may quote, at most
 * max_sources of those holding enough of the question (QUOTABLE_SHARE), or none when the chance is
 * below min_retrieval_confidence. With none, `fallback` is the message to say when a source is
 * required; without that requirement it is null and the responder may answer from general
 * knowledge (only a generative responder can).
 */
export function qualityGate(
  hits: SearchHit[],
  confidence: number,
  settings: QualityCheckSettings,
): { passages: SearchHit[]; fallback: string | null } {
  const passages =
    confidence > 0 && confidence >= settings.min_retrieval_confidence
      ? hits.filter((hit) => hit.score >= QUOTABLE_SHARE && hit.score > 0).slice(0, settings.max_sources)
      : [];
  return { passages, fallback: passages.length || !settings.require_source ? null : settings.fallback_message };
}
