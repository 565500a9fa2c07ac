import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  await host.deps.db.insert(users).values([
    { email: "staff@example.com", name: "Staff", userType: "admin" },
    { email: "loner@example.com", name: "No Roles", userType: "user" },
  ]);
});
afterAll(() => host?.close());

const visibleCodes = async (email: string, query = "?status=active") => {
  const { user_token } = await signInAs(host, email);
  const { status, body } = await call("GET", `/v1/apps${query}`, { token: user_token });
  expect(status).toBe(200);
  return body.apps.map((app: { url_code: string }) => app.url_code);
};

describe("GET /v1/apps visibility per role", () => {
  it("shows every client to super_admin and admin", async () => {
    expect(await visibleCodes("admin@example.com")).toEqual(["shopharbor-outfitters", "northfield"]);
    expect(await visibleCodes("staff@example.com")).toHaveLength(2);
  });

  it("shows client users only the clients they hold a role in", async () => {
    expect(await visibleCodes("client.admin@example.com")).toEqual(["northfield"]);
    expect(await visibleCodes("client.user@example.com")).toEqual(["northfield"]);
    expect(await visibleCodes("loner@example.com")).toEqual([]);
  });

  it("answers the same without filters (the shell's prepared reads), each client with its own agents", async () => {
    expect(await visibleCodes("admin@example.com", "")).toEqual(["shopharbor-outfitters", "northfield"]);
    expect(await visibleCodes("client.admin@example.com", "")).toEqual(["northfield"]);
    expect(await visibleCodes("loner@example.com", "")).toEqual([]);
    const { user_token } = await signInAs(host, "client.user@example.com");
    const { body } = await call("GET", "/v1/apps", { token: user_token });
    expect(
      body.apps.map((app: { agents: { site_code: string }[] }) => app.agents.map((agent) => agent.site_code)),
    ).toEqual([["admissions", "studentsuccess"]]);
  });

  it("answers every client field of the spec with its agents", async () => {
    const { user_token } = await signInAs(host, "admin@example.com");
    const { body } = await call("GET", "/v1/apps?status=active", { token: user_token });
    const northfield = body.apps.find((a: { url_code: string }) => a.url_code === "northfield");
    expect(Object.keys(northfield).sort()).toEqual([
      "agents",
      "client_name",
      "client_type",
      "copy_market",
      "country",
      "id",
      "insync_prod_app_id",
      "logo_url",
      "market",
      "mode_env",
      "notes",
      "onboard_existing_client",
      "primary_website",
      "project_url",
      "status",
      "trigger_points",
      "url_code",
    ]);
    expect(northfield.agents.map((a: { site_code: string }) => a.site_code)).toEqual(["admissions", "studentsuccess"]);
    expect(northfield).toMatchObject({ client_type: "higher_ed", mode_env: "staging", onboard_existing_client: true });
  });

  it("rejects an unknown status filter with 400", async () => {
    const { user_token } = await signInAs(host, "admin@example.com");
    const { status, body } = await call("GET", "/v1/apps?status=whatever", { token: user_token });
    expect(status).toBe(400);
    expect(Object.keys(body.errors)).toEqual(["status"]);
  });
});

describe("the API describes itself", () => {
  it("serves an OpenAPI document of the routes that exist", async () => {
    const { status, body } = await call("GET", "/v1/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        "/auth/google",
        "/auth/dev",
        "/v1/users/get_info",
        "/v1/users/generate_access_token",
        "/v1/apps",
        "/v1/jobs/queues",
      ]),
    );
    expect(body.paths["/v1/apps"].get.parameters).toEqual([
      expect.objectContaining({ name: "status", in: "query" }),
      expect.objectContaining({ name: "saerch", in: "query" }),
    ]);
    expect(body.paths["/auth/dev"].post.requestBody.content["application/json"].schema.properties.email).toBeDefined();
  });

  it("answers a known path asked with another method 405, saying which methods it answers", async () => {
    const response = await host.api.request("/v1/chat", { method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual({ message: "GET is not allowed on /v1/chat; it answers POST" });
    const onAClient = await host.api.request("/v1/apps/12345", { method: "POST" });
    expect(onAClient.status).toBe(405);
    expect(onAClient.headers.get("allow")).toBe("PUT");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    expect(await call("GET", "/v1/nothing-here")).toEqual({
      status: 404,
      body: { message: "No route for GET /v1/nothing-here" },
    });
  });
});
