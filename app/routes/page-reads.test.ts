import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { AppsList, AppUpdateResult } from "@contract";
import { requireApi } from "~/server/api/client.server";
import { newRequestScope, type ConsoleContext } from "~/server/context.server";
import { loader as rootLoader } from "~/root";
import { loader as clientLoader } from "./$appName";
import { loader as agentLoader } from "./$appName.agent.$agentName";
import { loader as websitesLoader } from "./$appName.agent.$agentName.knowledge-store.websites";

let host: Awaited<ReturnType<typeof startTestHost>>;
let cookie: string;

beforeAll(async () => {
  host = await startTestHost();
  cookie = await signInToConsole(host, "admin@example.com");
});
afterAll(async () => {
  await host?.close();
});

const PAGE = "/northfield/agent/admissions/knowledge-store/websites";
const params = { appName: "northfield", agentName: "admissions" };

/** A load context that records every API call, as one browser request (server.ts) makes it. */
function countingContext(scoped: boolean) {
  const calls: string[] = [];
  const base = testContext(host);
  const context: ConsoleContext = {
    ...base,
    apiFetch: (request) => {
      // Ids vary with the database; the kind of call is what counts.
      calls.push(`${request.method} ${new URL(request.url).pathname.replace(/\/\d+(?=\/|$)/g, "/:id")}`);
      return base.apiFetch(request);
    },
    requestScope: scoped ? newRequestScope() : undefined,
  };
  return { context, calls };
}

/** The loaders Remix runs for the Websites page, each with its own copy of the request. */
async function loadWebsitesPage(context: ConsoleContext) {
  const responses = await Promise.all(
    [rootLoader, clientLoader, agentLoader, websitesLoader].map((loader) =>
      settle(() => loader({ request: getRequest(PAGE, cookie), context, params })),
    ),
  );
  for (const response of responses) expect(response.status).toBe(200);
}

describe("the API reads of one page", () => {
  it("asks the API once per distinct read when the loaders share a request scope", async () => {
    const { context, calls } = countingContext(true);
    await loadWebsitesPage(context);
    expect(calls.sort()).toEqual([
      "GET /v1/apps",
      "GET /v1/apps/:id/urls/status_counts",
      "GET /v1/apps/:id/websites",
      "GET /v1/users/get_info",
    ]);
  });

  it("reads afresh without a request scope (a context reused across requests)", async () => {
    const { context, calls } = countingContext(false);
    await loadWebsitesPage(context);
    expect(calls.filter((call) => call === "GET /v1/apps")).toHaveLength(4);
  });

  it("forgets the request's reads after a write, so what follows shows what the write did", async () => {
    const { context, calls } = countingContext(true);
    const api = await requireApi(getRequest(PAGE, cookie), context);
    const apps = () => api.get(AppsList, "/v1/apps", { status: "active" });
    await Promise.all([apps(), apps()]);
    expect(calls).toEqual(["GET /v1/apps"]);
    const [app] = (await apps()).apps;
    await api.put(AppUpdateResult, `/v1/apps/${app.id}`, { ...app, notes: "changed within one request" });
    const after = await apps();
    expect(calls).toEqual(["GET /v1/apps", "PUT /v1/apps/:id", "GET /v1/apps"]);
    expect(after.apps.find((candidate) => candidate.id === app.id)?.notes).toBe("changed within one request");
  });
});

describe("authenticating an API call", () => {
  it("reads the caller and their roles in one database round trip", async () => {
    const handle = host.handle;
    const token = (await (
      await host.api.request("/auth/dev", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "client.admin@example.com" }),
      })
    ).json()) as { user_token: string };
    const statements: string[] = [];
    const record = (statement: unknown) => statements.push(String(statement));
    let response: Response;
    if (handle.kind === "pglite") {
      const query = handle.pglite.query.bind(handle.pglite);
      handle.pglite.query = ((sql: string, ...rest: never[]) => (
        record(sql),
        query(sql, ...rest)
      )) as typeof handle.pglite.query;
      try {
        response = await host.api.request("/v1/users/get_info", {
          headers: { authorization: `Bearer ${token.user_token}` },
        });
      } finally {
        handle.pglite.query = query;
      }
    } else {
      const query = handle.pool.query.bind(handle.pool);
      handle.pool.query = ((config: { text?: string } | string, ...rest: never[]) => (
        record(typeof config === "string" ? config : config.text),
        query(config as never, ...rest)
      )) as typeof handle.pool.query;
      try {
        response = await host.api.request("/v1/users/get_info", {
          headers: { authorization: `Bearer ${token.user_token}` },
        });
      } finally {
        handle.pool.query = query;
      }
    }
    expect(response.status).toBe(200);
    const info = (await response.json()) as { app_roles: unknown[] };
    expect(info.app_roles.length).toBeGreaterThan(0);
    expect(statements).toHaveLength(1);
  });
});
