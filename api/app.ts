import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { agentRoutes } from "./agents/routes";
import { appRoutes } from "./apps/routes";
import { authRoutes } from "./auth/routes";
import { controlRoutes } from "./controls/routes";
import type { ApiDeps } from "./deps";
import { openApiDocument } from "./http/openapi";
import { allowedMethodsOf } from "./http/allowed-methods";
import { callerScopeOf, errorResponse, routeBuilder } from "./http/route";
import { Throttle } from "./http/throttle";
import { StorageWrites } from "./http/storage-writes";
import { rejectUnsafeInput } from "./http/input-guard";
import { downloadRoutes, SIGNED_UPLOAD_PATH, storageRoutes } from "./downloads/routes";
import { exportRoutes } from "./exports/routes";
import { appearanceRoutes } from "./appearance/routes";
import { botInstallRoutes, publicChatCors, publicChatRoutes } from "./chat/routes";
import { chatFeedbackRoutes } from "./chat/feedback";
import { RateLimiter, UnknownKeyLimit } from "./chat/rate-limit";
import { fileRoutes } from "./files/routes";
import { insightRoutes } from "./insights/routes";
import { integrationRoutes } from "./integrations/routes";
import { personalisationRoutes } from "./personalisation/routes";
import { jobRoutes } from "./jobs/routes";
import { knowledgeRoutes } from "./knowledge/routes";
import { userRoutes } from "./users/routes";
import { countingStatements, DATABASE_TIMING } from "./db/statement-timing";
import { beginAnswering } from "./db/foreground";
import { testingRoutes } from "./testing/routes";
import { historyRoutes } from "./history/routes";
import { conversationRoutes } from "./conversations/routes";
import { qualityEvidenceRoutes } from "./quality-evidence/routes";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Builds the API host: every /v1 and /auth route, the OpenAPI document and JSON errors. */
export function createApi(deps: ApiDeps) {
  const app = new Hono();
  app.onError((error, c) => errorResponse(error, c, deps.log));
  app.notFound((c) => {
    const allowed = allowedMethodsOf(app, c.req.path);
    if (allowed.length)
      return c.json(
        { message: `${c.req.method} is not allowed on ${c.req.path}; it answers ${allowed.join(", ")}` },
        405,
        {
          Allow: allowed.join(", "),
        },
      );
    return c.json({ message: `No route for ${c.req.method} ${c.req.path}` }, 404);
  });

  // Each answer says how long its database statements took (Server-Timing: db), which the console
  // adds up into its pages' own Server-Timing.
  // While it is answered, background jobs give way to it on an embedded database (db/foreground.ts).
  // Answers hold tokens (RFC 6749 5.1 asks for no-store) or one client's data: no cache keeps one
  // unless its route says otherwise.
  app.use("*", async (c, next) => {
    const answered = beginAnswering();
    const { timing } = await countingStatements(next).finally(answered);
    c.res.headers.append(
      "Server-Timing",
      `${DATABASE_TIMING};dur=${timing.ms.toFixed(1)};desc="${timing.statements} statements"`,
    );
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  });

  // Bodies are read whole: anything bigger than the largest legitimate one (bulk URL lists, logo
  // uploads) is refused before it is buffered.
  // Signed uploads stream to storage under their own, larger cap (storageRoutes).
  publicChatCors(app);
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ message: "The request body is larger than 10 MB" }, 413),
  });
  app.use("*", (c, next) => (c.req.path === SIGNED_UPLOAD_PATH ? next() : limitBody(c, next)));
  // NUL, lone surrogates and over-long strings never reach a handler or the database.
  app.use("*", (c, next) => (c.req.path === SIGNED_UPLOAD_PATH ? next() : rejectUnsafeInput(c, next)));

  // A write made by a console page clears the callers its reads share (api/auth/caller.ts).
  app.use("*", (c, next) => {
    callerScopeOf(c)?.noteCall(c.req.method);
    return next();
  });

  const route = routeBuilder(app, deps);
  const storageWrites = new StorageWrites(deps.config.storageWritesPerMinute);
  authRoutes(route, new Throttle(deps.config.signInLimits));
  appRoutes(route, storageWrites);
  agentRoutes(route, storageWrites);
  exportRoutes(route, storageWrites);
  userRoutes(route);
  downloadRoutes(route);
  knowledgeRoutes(route);
  insightRoutes(route, storageWrites);
  fileRoutes(route, storageWrites);
  personalisationRoutes(route);
  integrationRoutes(route);
  appearanceRoutes(route, storageWrites);
  botInstallRoutes(route);
  testingRoutes(route);
  historyRoutes(route);
  conversationRoutes(route);
  controlRoutes(route);
  qualityEvidenceRoutes(route);
  jobRoutes(route);
  storageRoutes(app, deps);
  // Embed keys nobody issued count per address across the widget's calls.
  const unknownKeys = new UnknownKeyLimit(() => deps.config.chatRateLimitPerMinute);
  publicChatRoutes(app, deps, unknownKeys);
  // Ratings count apart from chat messages (a visitor who asked their fill may still rate), by the same rule.
  chatFeedbackRoutes(route, new RateLimiter(() => deps.config.chatRateLimitPerMinute), unknownKeys);

  const document = openApiDocument(route.docs);
  app.get("/v1/openapi.json", (c) => c.json(document));
  return app;
}

export type Api = ReturnType<typeof createApi>;
