import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, clientApps, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/**
 * DESIGN.md's role table, endpoint by endpoint: who may read and who may change what, on their own
 * client (A = northfield) and on a foreign one (B = harbor). Expected: 2xx allowed, 403 refused,
 * 404 for a client the caller may not even see.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
const token: Record<string, string> = {};
const ids = { A: 0, B: 0, agentA: 0, agentB: 0 };

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  await host.deps.db.insert(users).values([
    { email: "staff@example.com", name: "Staff", userType: "admin" },
    { email: "outsider@example.com", name: "Outsider", userType: "user" },
  ]);
  for (const [role, email] of Object.entries({
    super_admin: "admin@example.com",
    admin: "staff@example.com",
    client_admin: "client.admin@example.com",
    client_user: "client.user@example.com",
    outsider: "outsider@example.com",
  }))
    token[role] = (await signInAs(host, email)).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  ids.A = apps.find((a) => a.urlCode === "northfield")!.id;
  ids.B = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
  ids.agentA = (await host.deps.db.select().from(agents).where(eq(agents.appId, ids.A)))[0].id;
  ids.agentB = (await host.deps.db.select().from(agents).where(eq(agents.appId, ids.B)))[0].id;
});
afterAll(() => host?.close());

type Role = "super_admin" | "admin" | "client_admin" | "client_user" | "outsider";
type Expect = Record<Role, number>;

const app = (which: "A" | "B") => ({ A: ids.A, B: ids.B })[which];
const appFields = (which: "A" | "B") => ({
  client_name: which === "A" ? "Northfield University" : "Harbor Outfitters",
  url_code: which === "A" ? "northfield" : "shopharbor-outfitters",
  country: which === "A" ? "US" : "UK",
});

const cases: {
  name: string;
  run: (t: string, which: "A" | "B") => Promise<{ status: number }>;
  own: Expect;
  foreign: Expect;
}[] = [
  {
    name: "GET agent",
    run: (t, w) => call("GET", `/v1/apps/${app(w)}/agents/${w === "A" ? ids.agentA : ids.agentB}`, { token: t }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 200, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "update_agents",
    run: (t, w) =>
      call("POST", `/v1/apps/${app(w)}/agents/update_agents`, {
        token: t,
        body: { app_id: app(w), name: "Matrix", site_code: `m${Math.random().toString(36).slice(2, 8)}` },
      }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 403, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "PUT app",
    run: (t, w) => call("PUT", `/v1/apps/${app(w)}`, { token: t, body: appFields(w) }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 403, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "export",
    run: (t, w) => call("POST", `/v1/apps/${app(w)}/exports/export`, { token: t }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 403, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "GET app users",
    run: (t, w) => call("GET", `/v1/apps/${app(w)}/users`, { token: t }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 200, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "upsert app users",
    run: (t, w) =>
      call("POST", `/v1/apps/${app(w)}/users/upsert`, {
        token: t,
        body: { users: [{ email: `new-${Math.random().toString(36).slice(2, 8)}@example.com`, name: "New" }] },
      }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 403, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
  {
    name: "latest admin files",
    run: (t, w) => call("GET", `/v1/admin_downloads/latest_files?app_id=${app(w)}`, { token: t }),
    own: { super_admin: 200, admin: 200, client_admin: 200, client_user: 200, outsider: 404 },
    foreign: { super_admin: 200, admin: 200, client_admin: 404, client_user: 404, outsider: 404 },
  },
];

const globalCases: { name: string; run: (t: string) => Promise<{ status: number }>; expect: Expect }[] = [
  {
    name: "GET users",
    run: (t) => call("GET", "/v1/users", { token: t }),
    expect: { super_admin: 200, admin: 200, client_admin: 403, client_user: 403, outsider: 403 },
  },
  {
    name: "create app",
    run: (t) =>
      call("POST", "/v1/apps", {
        token: t,
        body: { client_name: "M", url_code: `m-${Math.random().toString(36).slice(2, 8)}` },
      }),
    expect: { super_admin: 201, admin: 201, client_admin: 403, client_user: 403, outsider: 403 },
  },
  {
    name: "export files",
    run: (t) => call("GET", "/v1/export_files", { token: t }),
    expect: { super_admin: 200, admin: 200, client_admin: 403, client_user: 403, outsider: 403 },
  },
  {
    name: "jobs",
    run: (t) => call("GET", "/v1/jobs/queues", { token: t }),
    expect: { super_admin: 200, admin: 200, client_admin: 403, client_user: 403, outsider: 403 },
  },
];

const roles: Role[] = ["super_admin", "admin", "client_admin", "client_user", "outsider"];

describe("role × endpoint matrix", () => {
  for (const c of cases) {
    it(`${c.name} on the caller's own client and on a foreign one`, async () => {
      const actual = { own: {} as Expect, foreign: {} as Expect };
      for (const role of roles) {
        actual.own[role] = (await c.run(token[role], "A")).status;
        actual.foreign[role] = (await c.run(token[role], "B")).status;
      }
      expect(actual).toEqual({ own: c.own, foreign: c.foreign });
    });
  }
  for (const c of globalCases) {
    it(`${c.name} (global)`, async () => {
      const actual = {} as Expect;
      for (const role of roles) actual[role] = (await c.run(token[role])).status;
      expect(actual).toEqual(c.expect);
    });
  }
});
