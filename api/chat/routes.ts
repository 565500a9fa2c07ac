import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import {
  BotInstall,
  BotInstallQuery,
  CHAT_MESSAGE_MAX_CHARS,
  ChatRequest,
  FEEDBACK_COMMENT_MAX_CHARS,
  WidgetConfig,
  WidgetConfigQuery,
  type ChatEvent,
} from "@contract";
import { appearanceOf } from "../appearance/values";
import { requireApp } from "../auth/permissions";
import { clientScope } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { FEEDBACK_MAX_BODY_BYTES, FEEDBACK_PATH } from "./feedback";
import { fieldErrorsOf } from "../http/errors";
import { isJsonBody, JSON_BODIES_ONLY } from "../http/input-guard";
import type { RouteBuilder } from "../http/route";
import { visitorOf } from "../http/throttle";
import { beginAnswering } from "../db/foreground";
import { embedKeyFor, resolveEmbedKeyScope } from "./keys";
import { RateLimiter, type UnknownKeyLimit } from "./rate-limit";
import { storeQuestion } from "./store";
import { answerVisitor } from "./answer-visitor";

/** Text as a double-quoted HTML attribute's value, which a browser reads back as it was. */
const attributeValue = (text: string) =>
  text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]!);

/**
 * The embed script: the widget from this server, told its key, environment and trigger point. A
 * trigger point is named as the client wrote it ("Campus Visit", "Admisión"): the widget asks under
 * that exact name, which saved names are checked against (one line, at most 100 characters, no
 * control characters), so it is escaped for the attribute, not cut down to ASCII.
 */
export function embedScript(publicUrl: string, key: string, environment: string, triggerPoint: string) {
  const attributes = [`src="${publicUrl}/widget.js"`, `data-key="${key}"`, `data-environment="${environment}"`];
  if (triggerPoint) attributes.push(`data-trigger-point="${attributeValue(triggerPoint)}"`);
  return `<script ${attributes.join(" ")} defer></script>`;
}

export function botInstallRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/bot_installs",
    tag: "Appearance",
    summary:
      "The script that embeds the chat widget for an environment (stage = Sandbox, prod = Production) and agent (`app_name`, its site code).",
    query: BotInstallQuery,
    response: BotInstall,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      const { triggerPoints } = await clientScope(query.app_id, deps.db);
      const triggerPoint = triggerPoints.has(query.app_name) ? query.app_name : "";
      const key = await embedKeyFor(query.app_id, query.env, deps);
      return {
        content: embedScript(deps.config.publicUrl, key, query.env, triggerPoint),
        key,
        environment: query.env,
        trigger_point: triggerPoint,
      };
    },
  });
}

const encoder = new TextEncoder();
/** Up to twelve words (with the spaces after them) per streamed delta. */
const DELTA_WORDS = /(?:\S+\s*){1,12}/g;
const line = (event: ChatEvent) => encoder.encode(`${JSON.stringify(event)}\n`);

/**
 * The widget's endpoints are open to any origin. Registered before the input guards, so that their
 * refusals (a 400 for a NUL in a message, a 413 for a body too large) carry CORS headers the widget
 * can read.
 */
export function publicChatCors(app: Hono) {
  // A refusal's Retry-After says when the widget may ask again; browsers hide it from a script on
  // another origin unless it is exposed.
  const exposeHeaders = ["Retry-After"];
  const openToAnyOrigin = cors({
    origin: "*",
    allowMethods: ["POST", "OPTIONS"],
    allowHeaders: ["content-type"],
    exposeHeaders,
    maxAge: 600,
  });
  app.use("/v1/chat", openToAnyOrigin);
  app.use(FEEDBACK_PATH, openToAnyOrigin);
  app.use("/v1/widget/*", cors({ origin: "*", allowMethods: ["GET", "OPTIONS"], exposeHeaders, maxAge: 600 }));
  // Anyone may post here, so a body is refused before it is read when it is larger than a chat
  // request can be: 2,000 characters of message (at most three bytes each), the key and the ids.
  app.use(
    "/v1/chat",
    bodyLimit({
      maxSize: CHAT_MAX_BODY_BYTES,
      onError: (c) =>
        c.json({ message: `Keep messages to at most ${CHAT_MESSAGE_MAX_CHARS.toLocaleString("en")} characters` }, 413),
    }),
  );
  app.use(
    FEEDBACK_PATH,
    bodyLimit({
      maxSize: FEEDBACK_MAX_BODY_BYTES,
      onError: (c) => c.json({ message: `Keep comments to at most ${FEEDBACK_COMMENT_MAX_CHARS} characters` }, 413),
    }),
  );
}

const NOT_JSON = Symbol("not JSON");

/** The largest chat request body: a 2,000-character message, the key and the ids, with room to spare. */
export const CHAT_MAX_BODY_BYTES = 16 * 1024;

/**
 * The public side the widget talks to, open to any origin (it is embedded on clients' sites) but
 * only for a valid embed key: the widget's configuration and the streamed chat.
 */
export function publicChatRoutes(app: Hono, deps: ApiDeps, unknownKeys: UnknownKeyLimit) {
  const limiter = new RateLimiter(() => deps.config.chatRateLimitPerMinute);

  app.get("/v1/widget/config", async (c) => {
    const query = WidgetConfigQuery.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!query.success) return c.json({ message: "The embed key is not valid" }, 400);
    const scope = await unknownKeys.scopeOf(query.data.key, visitorOf(c), (key) => resolveEmbedKeyScope(key, deps));
    const triggerPoint = scope.triggerPoints.has(query.data.trigger_point) ? query.data.trigger_point : "";
    const { values } = await appearanceOf(scope.appId, triggerPoint, scope.environment, deps);
    const body: WidgetConfig = { environment: scope.environment, appearance: values };
    return c.json(body, 200, { "Cache-Control": "no-store" });
  });

  app.post("/v1/chat", async (c) => {
    // Only a JSON body passes the input guard's reading (control characters, lengths): no other is parsed.
    if (!isJsonBody(c.req.header("content-type"))) return c.json({ message: JSON_BODIES_ONLY }, 415);
    const body: unknown = await c.req.json().catch(() => NOT_JSON);
    if (body === NOT_JSON) return c.json({ message: "The request body is not valid JSON" }, 400);
    const parsed = ChatRequest.safeParse(body);
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error);
      return c.json({ message: Object.values(errors)[0]?.[0] ?? "Invalid request body", errors }, 400);
    }
    const request = parsed.data;
    const scope = await unknownKeys.scopeOf(request.key, visitorOf(c), (key) => resolveEmbedKeyScope(key, deps));
    const visitorKey = `${request.key}\n${visitorOf(c)}`;
    if (!limiter.allow(visitorKey)) {
      return c.json({ message: "Too many messages at once; wait a minute and try again" }, 429, {
        "Retry-After": String(limiter.retryAfterSeconds(visitorKey)),
      });
    }
    const { triggerPoints, clientType } = scope;
    const triggerPoint = triggerPoints.has(request.trigger_point) ? request.trigger_point : "";
    const { conversationId, messageId, previousQuestion } = await storeQuestion(request, scope, triggerPoint, deps);

    // A visitor who closes the page cancels the stream; the answer is still composed and stored
    // (it counts in insights), it just has nobody to go to.
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (event: ChatEvent) => {
          if (!cancelled) controller.enqueue(line(event));
        };
        send({ type: "start", conversation_id: conversationId });
        // The answer is composed after the handler has returned: it is still an answer under way,
        // which background jobs give way to on an embedded database (db/foreground.ts).
        const answered = beginAnswering();
        try {
          const { answer, messageId: answerId } = await answerVisitor(
            { appId: scope.appId, environment: scope.environment, clientType, triggerPoint },
            { conversationId, messageId, previousQuestion, message: request.message },
            deps,
          );
          // The answer goes out in groups of words, so the widget shows it growing; each group is a
          // write and a line to read on both sides, so not one per word.
          for (const piece of answer.text.match(DELTA_WORDS) ?? []) send({ type: "delta", text: piece });
          send({
            type: "done",
            message_id: answerId,
            outcome: answer.outcome,
            // What the visitor opens: a file's id stays with the stored answer.
            sources: answer.sources.map(({ title, url }) => ({ title, url })),
            disclaimer: answer.disclaimer,
            programs: answer.programs,
          });
        } catch (error) {
          deps.log.error("chat answer failed", error);
          send({ type: "error", message: "Sorry, something went wrong. Please try again." });
        } finally {
          answered();
        }
        if (!cancelled) controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      },
    });
  });
}
