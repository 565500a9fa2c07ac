import { and, asc, eq, inArray } from "drizzle-orm";
import { fileAnswersIn, type AnswerTrace, type FallbackReason, type QualityCheckSettings, cutText } from "@contract";
import { assistantControls, qualityGate, type AssistantControls } from "../controls/runtime";
import { knowledgeFiles, programRecords } from "../db/schema";
import type { ApiDeps } from "../deps";
import { retrieve, searchablePartOf, type QuestionTerm, type SearchHit } from "../knowledge/index/search";
import { sentencesOf } from "../knowledge/words/sentences";
import { answerConfidence, answerEvidence } from "./answer-confidence";
import type { ChatAnswer, ClosestPassage, StoredSource } from "./chat-answer";
import { composeAnswer } from "./compose";
import { followUpContext, followUpSearch } from "./follow-up";
import { generateAnswer, modelContext } from "./generate";
import { answerOfSeveral, ENDS_AS_A_QUESTION, questionsOf } from "./several-questions";
import { askedPartOf, smallTalkOf, smallTalkReply } from "./small-talk";
import { traceOf, type TracedControl } from "./trace";
import { contentWords, mentions, sameWord } from "./words";

const NOTHING = { sources: [], disclaimer: null, programs: [], citedPages: [], closest: [], passages: [], context: [] };

/** The best passages found, whatever the quality check said: what an operator looks at to fill the gap. */
const closestOf = (hits: SearchHit[]): ClosestPassage[] =>
  hits.slice(0, 3).map((hit) => ({
    title: hit.title || hit.url || hit.fileName || "",
    url: hit.url ?? "",
    score: Math.round(hit.score * 1000) / 1000,
    text: cutText(hit.text, 300),
  }));

type ResponderDeps = Pick<ApiDeps, "db" | "storage" | "config" | "log">;
/** Passages the extractive answer looks for its sentence in. */
const COMPOSITION_POOL = 8;

/**
 * The passages that passed the quality check, then the others retrieval found on their pages (at
 * most COMPOSITION_POOL in all). A page's sections seldom repeat its subject's words: "How long does
 * the nursing program take?" is answered by the program page's "Quick facts" box ("Length: 4
 * years"), which names the program only in its headings, and a follow-up that asks its previous
 * question's subject for an amount or a date finds it in the section headed "Tuition". Once one
 * passage of a page passes the check, the page is what the question is about, and its other
 * passages may hold the sentence that answers; the check still decides whether to answer at all.
 */
function onTheirPages(passed: SearchHit[], hits: SearchHit[]) {
  const pageOf = (hit: SearchHit) => (hit.urlId !== null ? `url ${hit.urlId}` : `file ${hit.fileId}`);
  const pages = new Set(passed.map(pageOf));
  return [...passed, ...hits.filter((hit) => !passed.includes(hit) && pages.has(pageOf(hit)))].slice(
    0,
    COMPOSITION_POOL,
  );
}

const PROGRAM_QUESTION = /\b(program|programme|degree|major|course|study|studies|recommend)/i;

/**
 * Uploaded files answer only in the environments they are tagged for (an untagged file in neither).
 * Answers the hits kept, and the names of the client's files whose passages were left out for it,
 * in retrieval's order: an operator tags one of those in Files when it holds the answer.
 */
async function withinEnvironment(appId: number, hits: SearchHit[], environment: "stage" | "prod", deps: ResponderDeps) {
  const fileIds = [...new Set(hits.map((h) => h.fileId).filter((id): id is number => id !== null))];
  if (!fileIds.length) return { hits, notTagged: [] };
  const files = await deps.db
    .select({ id: knowledgeFiles.id, tags: knowledgeFiles.tags, fileName: knowledgeFiles.fileName })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.appId, appId), inArray(knowledgeFiles.id, fileIds)));
  const allowed = new Set(files.filter((f) => fileAnswersIn(f.tags, environment)).map((f) => f.id));
  const names = new Map(files.map((f) => [f.id, f.fileName]));
  const leftOut = hits.filter((h) => h.fileId !== null && !allowed.has(h.fileId));
  return {
    hits: hits.filter((h) => h.fileId === null || allowed.has(h.fileId)),
    notTagged: [...new Set(leftOut.flatMap((h) => names.get(h.fileId!) ?? []))],
  };
}

/**
 * Where a passage came from, as a link the visitor can open (a file's link is signed for a day),
 * and for an uploaded file its id: the transcript signs a link anew from it when it is read.
 */
async function sourceOf(hit: SearchHit, deps: ResponderDeps): Promise<StoredSource | null> {
  if (hit.url) return { title: hit.title || hit.url, url: hit.url };
  if (hit.fileId === null) return null;
  const [file] = await deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, hit.fileId));
  if (!file?.storageKey) return null;
  const link = await deps.storage.signedDownloadUrl(file.storageKey, file.fileName, {
    inline: true,
    expiresInSeconds: 24 * 3600,
  });
  return {
    title: file.title || file.fileName,
    url: link.url.startsWith("/") ? `${deps.config.publicUrl}${link.url}` : link.url,
    file_id: file.id,
  };
}

/** Programs of the last recommendation build whose name or stated values share words with the question. */
async function recommendPrograms(appId: number, question: string, deps: ResponderDeps) {
  if (!PROGRAM_QUESTION.test(question)) return [];
  const asked = contentWords(question).filter((w) => !PROGRAM_QUESTION.test(w));
  // By name, as the Recommendation screen lists them: programs that fit equally well are named in
  // that order, not in the order PostgreSQL happens to store them (a changed row comes last).
  const records = await deps.db
    .select()
    .from(programRecords)
    .where(eq(programRecords.appId, appId))
    .orderBy(asc(programRecords.name), asc(programRecords.id));
  return records
    .map((record) => {
      const words = contentWords(`${record.name} ${Object.values(record.values).flat().join(" ")}`);
      return { record, score: asked.filter((a) => words.some((w) => sameWord(w, a))).length };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map(({ record }) => ({ name: record.name, url: record.sourceUrl }));
}

/**
 * The extractive responder (no model needed), in the order DESIGN.md §6 sets: a no-go topic gets
 * its canned response; otherwise the knowledge store is searched (finetuning penalties applied),
 * the quality check keeps the passages good enough or gives the fallback message, the answer
 * quotes the best sentences with their sources, programs that fit are named, and a sensitive
 * topic adds its disclaimer. With LLM_BASE_URL a model writes the answer from the same passages
 * and more (modelContext). A follow-up ("What are its admission requirements?") is searched, and
 * checked against the topics, with the previous question it points back to (api/chat/follow-up.ts).
 * What is searched is the visitor's own question: not the name or address they gave with it, nor a
 * greeting or thanks around it (askedPartOf), nor other words of thanks when the question's sentence
 * alone finds what the whole message did not; of a long message, its last words (searchablePartOf),
 * where visitors ask. The trace says what was searched when it was not the whole message.
 * A message that asks nothing (a greeting, thanks, a goodbye, a name alone) is not searched at all;
 * one that asks two or three questions has each answered on its own (api/chat/several-questions.ts).
 */
export async function respond(input: RespondInput, deps: ResponderDeps): Promise<ChatAnswer> {
  // The caller's client type, when it read one ("" is a type too: the client has none set).
  // A quoted answer reads no model instructions: those are read only when a model writes the answer.
  const controls = await assistantControls(
    input.appId,
    input.triggerPoint,
    deps,
    input.clientType === undefined ? undefined : { clientType: input.clientType },
    { forModel: !!deps.config.llm },
  );
  // A greeting, thanks or a name alone asks nothing: it gets a reply of its kind, and no search.
  const smallTalk = smallTalkOf(input.message);
  if (smallTalk) return smallTalkAnswer(smallTalk, controls.qualityCheck.min_retrieval_confidence);
  // What the visitor says of who they are (a name, an email), and a greeting or thanks around the
  // question, are not what they ask about.
  const whole = askedPartOf(input.message);
  const ownPart = searchablePartOf(whole);
  const asked = { ...input, previousQuestion: input.previousQuestion && askedPartOf(input.previousQuestion) };
  // Several questions in one message are answered each on its own, in order; each leans on the one
  // before it as a follow-up would. When none is answered alone, the message is searched whole.
  const questions = questionsOf(ownPart);
  // The topics are checked on what each search asks (answerSearching); a No-Go topic the message
  // raises outside all of those (before the last words a long message is searched by, in a sentence
  // beside its questions) still gets its canned response.
  const outside = (topic: string) =>
    mentions(whole, topic) && !(questions ?? [ownPart]).some((q) => mentions(q, topic));
  const noGo = controls.noGoTopics.find((t) => outside(t.topic));
  if (noGo) return cannedAnswer(noGo, controls.qualityCheck.min_retrieval_confidence);
  return withSensitiveTopics(await answerOf(input, asked, ownPart, questions, controls, deps), whole, controls);
}

/** The answer to the asked part of a message: its questions each on its own, or its searched part whole. */
async function answerOf(
  input: RespondInput,
  asked: RespondInput,
  ownPart: string,
  questions: string[] | null,
  controls: AssistantControls,
  deps: ResponderDeps,
): Promise<ChatAnswer> {
  if (questions) {
    const answers: ChatAnswer[] = [];
    for (const [index, question] of questions.entries())
      answers.push(
        await answerSearching(
          question,
          { ...asked, previousQuestion: index ? questions[index - 1] : asked.previousQuestion },
          controls,
          deps,
        ),
      );
    if (answers.some((answer) => answer.outcome !== "fallback")) return answerOfSeveral(questions, answers);
  }
  const answer = await answerSearching(ownPart, asked, controls, deps);
  // "Hey, thanks so much for your help earlier. How much is the application fee?": words of thanks
  // the store lacks weigh against the question. When the whole message finds nothing good enough,
  // its sentences that ask something are searched alone.
  const asking = answer.outcome === "fallback" ? askingSentencesOf(ownPart) : null;
  const retried = asking ? await answerSearching(asking, asked, controls, deps) : null;
  const [chosen, searched] = retried && retried.outcome !== "fallback" ? [retried, asking!] : [answer, ownPart];
  // The trace says what was searched when it was not the whole message.
  return searched === input.message ? chosen : { ...chosen, trace: { ...chosen.trace, searched } };
}

/** A topic that fired, as its trace names it: Default's says so, as Default's screen is where it is edited. */
const topicFired = (
  type: "no_go_topic" | "sensitive_topic",
  { topic, fromDefault }: { topic: string; fromDefault: boolean },
): AnswerTrace["controls"][number] => (fromDefault ? { type, name: topic, from_default: true } : { type, name: topic });

/** A No-Go topic's canned response: nothing is searched, and the trace names the topic. */
function cannedAnswer(noGo: AssistantControls["noGoTopics"][number], threshold: number, earlier?: string): ChatAnswer {
  const trace = traceOf({
    hits: [],
    threshold,
    confidence: 0,
    drawnFrom: [],
    listed: [],
    controls: [topicFired("no_go_topic", noGo)],
    model: false,
  });
  return { ...NOTHING, text: noGo.cannedResponse, outcome: "canned", trace: withFollowUp(trace, earlier) };
}

/**
 * An answer with the disclaimers of the Sensitive topics the message raises outside what its
 * searches asked (a long message's opening words, a sentence beside its questions), each once
 * after those its searches added (not for a question of several left unanswered). Only an answer
 * carries a disclaimer: not a fallback, nor a canned response.
 */
function withSensitiveTopics(answer: ChatAnswer, whole: string, controls: AssistantControls): ChatAnswer {
  if (answer.outcome !== "answered" && answer.outcome !== "disclaimed") return answer;
  const fired = new Set(answer.trace.controls.filter((c) => c.type === "sensitive_topic").map((c) => c.name));
  // The topic of a question of several that went unanswered adds nothing: no answer is about it.
  const unanswered = (answer.trace.parts ?? []).filter((part) => part.outcome === "fallback");
  const more = controls.sensitiveTopics.filter(
    (t) =>
      !fired.has(t.topic) && mentions(whole, t.topic) && !unanswered.some((part) => mentions(part.question, t.topic)),
  );
  if (!more.length) return answer;
  const said = answer.disclaimer?.split("\n\n") ?? [];
  const added = [...new Set(more.map((t) => t.disclaimer))].filter((text) => !said.includes(text));
  return {
    ...answer,
    outcome: "disclaimed",
    disclaimer: [answer.disclaimer, ...added].filter(Boolean).join("\n\n"),
    trace: {
      ...answer.trace,
      controls: [...answer.trace.controls, ...more.map((t) => topicFired("sensitive_topic", t))],
    },
  };
}

/** The trace, with the question a follow-up was searched with ("Why this answer" says so; a test question needs it). */
const withFollowUp = (trace: AnswerTrace, earlier: string | undefined): AnswerTrace =>
  earlier ? { ...trace, follow_up: earlier } : trace;

/** The reply to small talk: its trace says what the message was read as, and that nothing was searched. */
function smallTalkAnswer(smallTalk: NonNullable<ReturnType<typeof smallTalkOf>>, threshold: number): ChatAnswer {
  // No chance was estimated (no search ran): the threshold evidence has nothing to replay of it.
  const trace: AnswerTrace = {
    threshold,
    top_score: 0,
    passages: [],
    controls: [],
    model: false,
    small_talk: smallTalk.kind,
  };
  return { ...NOTHING, text: smallTalkReply(smallTalk), outcome: "small_talk", trace };
}

/**
 * A message's sentences that end in a question mark, when others of its sentences do not and they
 * hold two content words or more (a question cut off after "No." is left as it is); else null.
 */
export function askingSentencesOf(message: string) {
  const sentences = sentencesOf(message);
  const asking = sentences.filter((sentence) => ENDS_AS_A_QUESTION.test(sentence));
  if (!asking.length || asking.length === sentences.length) return null;
  const text = asking.join(" ");
  return contentWords(text).length >= 2 ? text : null;
}

interface RespondInput {
  appId: number;
  environment: "stage" | "prod";
  triggerPoint: string;
  message: string;
  clientType?: string;
  /** The visitor's previous question in this conversation, if any: a follow-up is searched with it. */
  previousQuestion?: string | null;
}

/**
 * The answer when `message` is what is searched and checked against the topics (the visitor's whole
 * message, or the part of it respond chose); a model that writes the answer reads the whole message.
 */
async function answerSearching(
  message: string,
  input: RespondInput,
  controls: Awaited<ReturnType<typeof assistantControls>>,
  deps: ResponderDeps,
): Promise<ChatAnswer> {
  // "What are its admission requirements?" after a question about the nursing program asks about that program.
  const earlier = followUpContext(message, input.previousQuestion);
  // So a follow-up raises the topics its previous question raised: "What would it cost me?" after
  // a no-go question gets the canned response again, and stays within the guardrails.
  const raises = (topic: string) => mentions(message, topic) || (!!earlier && mentions(earlier, topic));
  const noGo = controls.noGoTopics.find((t) => raises(t.topic));
  if (noGo) return cannedAnswer(noGo, controls.qualityCheck.min_retrieval_confidence, earlier);

  const searched = followUpSearch(message, input.previousQuestion);
  // The programs that fit are read while the store is searched: neither needs the other.
  const [found, programs] = await Promise.all([
    retrieve(
      {
        appId: input.appId,
        query: searched.query,
        context: searched.context,
        triggerPoint: input.triggerPoint,
        limit: 20,
      },
      deps,
    ),
    recommendPrograms(input.appId, message, deps),
  ]);
  const { hits, notTagged } = await withinEnvironment(input.appId, found.hits, input.environment, deps);
  // The answering sentence is looked for in every passage good enough for the quality check and
  // the others of their pages (up to a handful); the answer then cites at most max_sources
  // passages, the one it quotes first.
  const settings = controls.qualityCheck;
  const gateSettings = { ...settings, max_sources: Math.max(settings.max_sources, COMPOSITION_POOL) };
  // How likely an answer from what was found is right: the quality check answers only above its threshold.
  const confidence = answerConfidence(answerEvidence(hits, found.terms));
  const gate = qualityGate(hits, confidence, gateSettings);
  // The previous question's words helped find the passages; the question's own choose the sentence
  // (unless it has none, and asks its previous question's subject for a kind of answer).
  const choosing = searched.ownWords ? found.terms.filter((term) => !term.context) : found.terms;
  const composed = gate.passages.length
    ? composeAnswer(
        message,
        choosing,
        onTheirPages(gate.passages, hits),
        earlier ? `${earlier}\n${message}` : message,
        !searched.ownWords,
      )
    : { text: "", passages: [] };
  let passages = composed.passages.slice(0, settings.max_sources);
  // What the answer's text comes from: every sentence a quoted answer holds is of the one passage it
  // leads with; the others of `passages` are only listed beside it as sources.
  let drawnFrom = composed.text ? composed.passages.slice(0, 1) : [];
  // Once the quality check has passed, a model reads more than the answer may cite: the passage
  // that holds the answer is then among what it reads far more often.
  const context = composed.text ? modelContext(composed.passages[0], hits) : [];
  let text = composed.text;
  let written = false;
  if (text && deps.config.llm) {
    try {
      const model = await generateAnswer(
        deps.config.llm,
        earlier ? `${input.message}\n(Asked just before: ${earlier})` : input.message,
        context,
        controls,
        programs,
        settings.max_sources,
      );
      text = model.text;
      written = true;
      // Sources are what the model cited; an answer citing nothing lists those a quoted one would,
      // and a model that found no answer in the passages cites none of them. What it wrote is
      // drawn from what it cited: citing nothing, it names no passage it wrote from.
      if (!text) passages = [];
      else if (model.cited.length) passages = model.cited;
      drawnFrom = text ? model.cited : [];
    } catch (error) {
      // The quoted answer stands when the model cannot be reached: visitors still get an answer.
      deps.log.warn("language model answer failed; answering with quotes", error);
    }
  }
  // The Quality Check requires no source: when nothing in the store can be quoted (or the model
  // found no answer in it), a model answers from general knowledge, citing nothing. Without a model,
  // or when it declines too, the visitor gets the fallback message.
  if (!text && !programs.length && !settings.require_source && deps.config.llm) {
    try {
      const model = await generateAnswer(
        deps.config.llm,
        earlier ? `${input.message}\n(Asked just before: ${earlier})` : input.message,
        [],
        controls,
        [],
        settings.max_sources,
      );
      if (model.text) {
        text = model.text;
        written = true;
        passages = [];
        drawnFrom = [];
      }
    } catch (error) {
      deps.log.warn("language model answer from general knowledge failed; giving the fallback message", error);
    }
  }
  const traceWith = (fired: TracedControl[], listed: SearchHit[], fallbackReason?: FallbackReason) =>
    withFollowUp(
      traceOf({
        hits,
        threshold: settings.min_retrieval_confidence,
        confidence,
        drawnFrom,
        listed,
        controls: written ? [...fired, ...modelControls(controls)] : fired,
        model: written,
        fallbackReason,
        leftOut: found.leftOut,
        terms: found.terms,
        filesNotTagged: notTagged,
      }),
      earlier,
    );
  if (!text && !programs.length) {
    // Why nothing was quoted, in the order the checks above ran: what "Why this answer" tells. When
    // the passages of files not tagged for this environment would have passed the quality check,
    // those files are why: saying the store held nothing would send the operator to add a page.
    const reason: FallbackReason = !gate.passages.length
      ? untaggedWouldPass(found.hits, hits, found.terms, gateSettings)
        ? "file_not_tagged"
        : !hits.length
          ? "no_passage"
          : confidence > 0
            ? "below_threshold"
            : "none_quotable"
      : written
        ? "model_declined"
        : "no_sentence";
    return {
      ...NOTHING,
      text: controls.qualityCheck.fallback_message,
      outcome: "fallback",
      closest: closestOf(hits),
      trace: traceWith([], [], reason),
    };
  }
  const sensitive = controls.sensitiveTopics.find((t) => raises(t.topic));
  const sources: StoredSource[] = [];
  for (const hit of passages) {
    const source = await sourceOf(hit, deps);
    if (source && !sources.some((s) => s.url === source.url)) sources.push(source);
  }
  const programLine = programs.length ? `Programs that may fit: ${programs.map((p) => p.name).join(", ")}.` : "";
  return {
    text: [text, programLine].filter(Boolean).join(" "),
    outcome: sensitive ? "disclaimed" : "answered",
    sources,
    disclaimer: sensitive?.disclaimer ?? null,
    programs,
    citedPages: passages
      .filter((hit) => hit.url)
      .map((hit) => ({ title: hit.title || hit.url!, url: hit.url! }))
      .filter((page, index, all) => all.findIndex((other) => other.url === page.url) === index),
    closest: [],
    passages,
    context,
    // The sources below are the pages of `passages`, so those are the ones the trace says were listed.
    trace: withPrograms(traceWith(sensitive ? [topicFired("sensitive_topic", sensitive)] : [], passages), programs),
  };
}

/**
 * Whether the quality check, run on everything retrieval found (the passages of files not tagged
 * for the environment included), passes a passage of such a file: it is then what left the
 * question unanswered.
 */
function untaggedWouldPass(
  found: SearchHit[],
  kept: SearchHit[],
  terms: QuestionTerm[],
  settings: QualityCheckSettings,
) {
  if (found.length === kept.length) return false;
  const passed = qualityGate(found, answerConfidence(answerEvidence(found, terms)), settings).passages;
  return passed.some((hit) => !kept.includes(hit));
}

/** The trace, with the programs the answer named ("Why this answer" says where those came from). */
const withPrograms = (trace: AnswerTrace, programs: { name: string }[]): AnswerTrace =>
  programs.length ? { ...trace, programs: programs.slice(0, 20).map((program) => cutText(program.name, 300)) } : trace;

/** The instructions a model was given beyond the passages: the probing questions it may ask, and the input prompts. */
function modelControls(controls: Awaited<ReturnType<typeof assistantControls>>): TracedControl[] {
  const fired: TracedControl[] = [];
  if (controls.probing.topics.trim())
    fired.push({ type: "probing_question", name: cutText(controls.probing.topics.trim(), 200) });
  for (const [name, prompt] of Object.entries(controls.inputPrompts))
    if (prompt.trim()) fired.push({ type: "input_prompt", name });
  return fired;
}
