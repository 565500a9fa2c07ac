import type { ChatEvent, ChatOutcome, ChatRequest, ChatSource } from "@contract";

/** What a test reaches the API through: the Hono app's in-process `request`, with the visitor's address. */
interface InProcessApi {
  request(path: string, init: RequestInit, env?: { incoming: { ip: string } }): Response | Promise<Response>;
}

export interface ChatCall {
  conversation: string;
  /** The answer's message id: what a rating names. */
  answer: number;
  outcome: ChatOutcome;
  text: string;
  sources: ChatSource[];
}

/**
 * A visitor's message as the widget sends it (POST /v1/chat), its stream read to the end. Throws
 * with what came back when the stream holds no answer, so a test fails on the cause.
 */
export async function chatCall(api: InProcessApi, request: ChatRequest, ip = "203.0.113.50"): Promise<ChatCall> {
  const response = await api.request(
    "/v1/chat",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    },
    { incoming: { ip } },
  );
  const body = await response.text();
  const events = response.ok
    ? body
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as ChatEvent)
    : [];
  const start = events.find((event): event is Extract<ChatEvent, { type: "start" }> => event.type === "start");
  const done = events.find((event): event is Extract<ChatEvent, { type: "done" }> => event.type === "done");
  if (!start || !done) throw new Error(`the chat answered ${response.status} ${body}`);
  return {
    conversation: start.conversation_id,
    answer: done.message_id,
    outcome: done.outcome,
    text: events.map((event) => (event.type === "delta" ? event.text : "")).join(""),
    sources: done.sources,
  };
}

/**
 * A visitor's thumbs on an answer as the widget sends them (POST /v1/chat/feedback): its answer,
 * which a test reads the status and body of.
 */
export function feedbackCall(
  api: InProcessApi,
  feedback: {
    key: string;
    answer: Pick<ChatCall, "conversation" | "answer">;
    rating: "up" | "down";
    comment?: string;
  },
  ip = "203.0.113.50",
) {
  return api.request(
    "/v1/chat/feedback",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        key: feedback.key,
        conversation_id: feedback.answer.conversation,
        message_id: feedback.answer.answer,
        rating: feedback.rating,
        comment: feedback.comment,
      }),
    },
    { incoming: { ip } },
  );
}
