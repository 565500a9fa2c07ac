import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { agentRoutes } from "./agents/routes";
import { appRoutes } from "./apps/routes";
import { authRoutes } from "./auth/routes";
import type { ApiDeps } from "./deps";
import { openApiDocument } from "./http/openapi";
import { errorResponse, routeBuilder } from "./http/route";
import { downloadRoutes, storageRoutes } from "./downloads/routes";
import { exportRoutes } from "./exports/routes";
import { jobRoutes } from "./jobs/routes";
import { knowledgeRoutes } from "./knowledge/routes";
import { userRoutes } from "./users/routes";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Builds the API host: every /v1 and /auth route, the OpenAPI document and JSON errors. */
export function createApi(deps: ApiDeps) {
  const app = new Hono();
  app.onError((error, c) => errorResponse(error, c, deps.log));
  app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}` }, 404));

  // Bodies are read whole: anything bigger than the largest legitimate one (bulk URL lists, logo
  // uploads) is refused before it is buffered.
  app.use("*", bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ message: "The request body is larger than 10 MB" }, 413) }));

  const route = routeBuilder(app, deps);
  authRoutes(route);
  appRoutes(route);
  agentRoutes(route);
  exportRoutes(route);
  userRoutes(route);
  downloadRoutes(route);
  knowledgeRoutes(route);
  jobRoutes(route);
  storageRoutes(app, deps);

  const document = openApiDocument(route.docs);
  app.get("/v1/openapi.json", (c) => c.json(document));
  return app;
}

export type Api = ReturnType<typeof createApi>;
