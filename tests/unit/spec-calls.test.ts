import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleConfigFromEnv } from "../../api/config";
import { loader as dashboardLoader } from "../../app/routes/backoffice.$urlCode.dashboard";
import { action as tokenAction } from "../../app/routes/generate_jwt_token";
import { settle, signInToConsole, testContext } from "../support/console-context";
import { multipart, PNG_BYTES } from "../support/files";
import { startFixtureSite } from "../support/fixture-site";
import { startOidcProvider } from "../support/oidc";
import { makePdf } from "../support/pdf";
import { startTestHost } from "../support/test-host";
import { until } from "../support/wait";

/**
 * Conformance with section 7 of the product spec ("The calls it makes"): every call sent exactly as
 * the spec shapes it — method, path, query names, body keys — by a client that knows nothing else,
 * with the answer fields the spec names checked. SPEC_CALLS lists them all; the last test proves
 * each was made.
 */
const SPEC_CALLS = [
  // Session
  "POST /auth/google {code}",
  "GET /v1/users/get_info",
  "POST /v1/users/generate_access_token {refresh_token}",
  "POST {back-office host}/generate_jwt_token",
  // Clients and agents
  "GET /v1/apps?status=active",
  "GET /v1/apps?saerch (debounced search helper)",
  "POST /v1/apps",
  "PUT /v1/apps/{id}",
  "POST /v1/apps/logo_upload files[]",
  "GET /v1/export_files",
  "POST /v1/import_from_file {file_name}",
  "POST /v1/apps/{app_id}/exports/export",
  "GET /v1/apps/{app_id}/agents/{agent_id}",
  "POST /v1/apps/{app_id}/agents/update_agents (create)",
  "POST /v1/apps/{app_id}/agents/update_agents (update)",
  "POST /v1/apps/{app_id}/agents/logo_upload",
  // Users and access
  "GET /v1/users",
  "POST /v1/users/upsert {users[]}",
  "GET /v1/apps/{appId}/users",
  "POST /v1/apps/{appId}/users/upsert {users[]}",
  // Websites and URLs
  "GET /v1/apps/{appId}/websites?app_name&page&page_size&query",
  "POST /v1/apps/{appId}/websites/create_and_update {websites[]}",
  "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status, url_ids}",
  "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status} (whole website)",
  "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status, url_ids, force_index}",
  "POST /sitemap_refresh {id}",
  "GET /v1/apps/{appId}/urls/status_counts",
  "GET /v1/apps/{appId}/websites/{websiteId}/urls?page&page_size&order_by&order&search&status&sitemap_refresh_review_status",
  "GET /v1/apps/{appId}/urls (same query)",
  "POST /v1/apps/{appId}/urls/update_status",
  "POST /v1/apps/{appId}/websites/{websiteId}/urls/bulk_create {urls[]}",
  "PUT /v1/apps/{appId}/websites/{websiteId}/urls/{urlId} {url:{refresh_days}}",
  "POST /v1/apps/{appId}/websites/{websiteId}/urls/fetch_cached_chunks {appId, url}",
  "CSV export: up to 10000 rows with the current filters",
  // Files
  "GET /v1/files?app_id",
  "POST /v1/files/presigned_urls?app_id&user_id {file_names[]}",
  "PUT {presigned url} with its content type",
  "POST /v1/files/complete_upload {url_id, s3_path}",
  "PATCH /v1/files/{id} {app_id, tags[]}",
  // Controls, probing, prompts, finetuning
  "GET /v1/controls?app_id&trigger_point&types=sensitive_topics,no_go_topics",
  "GET /v1/controls?app_id&trigger_point&types=ai_personality_guidelines",
  "PUT /v1/controls {controls[], app_id}",
  "PUT /v1/controls?app_id {controls[]} (personality save)",
  "GET /v1/apps/{appId}/ai_probings?trigger_point&types=topics,topic_to_prob_mapping",
  "PUT /v1/apps/{appId}/ai_probings {ai_probings[], app_id}",
  "GET /v1/apps/{appId}/input_prompts?trigger_point",
  "PUT /v1/apps/{appId}/input_prompts {input_prompts[]}",
  "DELETE /v1/apps/{appId}/input_prompts/{id}",
  "GET /v1/controls/list_finetunings?app_id",
  "POST /v1/controls/upsert_finetunings {finetunings[]}",
  "DELETE /v1/controls/bulk_delete_finetunings {app_id, ids[]}",
  // Appearance and testing
  "GET /v1/appearances?appId&triggerPoint",
  "PUT /v1/appearances?appId&triggerPoint {appearance:{value}}",
  "POST /v1/appearances/get_diff?appId&triggerPoint {appearance:{value}}",
  "PUT /v1/appearances?appId&triggerPoint {appearance:{value}, targetEnv: production}",
  "POST /v1/appearances/upload_file?appId&triggerPoint",
  "GET /v1/bot_installs?app_id&env&app_name",
  // Integrations and personalisation
  "GET /v1/apps/{appId}/integrations",
  "POST /v1/apps/{appId}/integrations/upsert {integrations[]}",
  "GET /v1/apps/{appId}/personalisation_config_details",
  "POST /v1/apps/{appId}/personalisation_config_details/create_and_update {personalisation_config_details[]}",
  "DELETE /v1/apps/{appId}/personalisation_config_details/delete_record {record_id}",
  "POST /v1/apps/{appId}/personalisation_config_details/import_config {import_app_code}",
  "POST /v1/apps/{appId}/personalisation_config_details/recommendation_model_init {}",
  // Admin downloads
  "GET /v1/admin_downloads/latest_files?app_id",
  "POST /v1/admin_downloads/download {file_key}",
] as const;
type SpecCall = (typeof SPEC_CALLS)[number];

let host: Awaited<ReturnType<typeof startTestHost>>;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
const made = new Set<SpecCall>();

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the spec's answers are read field by field
  body: any;
}

/** A client of the API that knows only section 7: bearer tokens, JSON bodies, the spec's paths. */
let userToken = "";
async function send(
  call: SpecCall,
  method: string,
  path: string,
  body?: unknown,
  init: { form?: FormData; token?: string | null } = {},
): Promise<Answer> {
  made.add(call);
  const headers: Record<string, string> = { accept: "application/json" };
  const token = init.token === undefined ? userToken : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await host.api.request(path, {
    method,
    headers,
    body: init.form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // CSV and other plain answers stay text.
  }
  return { status: response.status, body: parsed };
}

/** The ids a client learns from earlier answers. */
const known = {
  appId: 0,
  newAppId: 0,
  agentId: 0,
  websiteId: 0,
  urlIds: [] as number[],
  fileId: 0,
  promptId: 0,
  recordId: 0,
  tuningIds: [] as number[],
};

beforeAll(async () => {
  oidc = await startOidcProvider();
  site = await startFixtureSite({ slowMs: 50 });
  host = await startTestHost({ google: googleConfigFromEnv(oidc.env), crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await site?.close();
  await oidc?.stop();
});

describe("Session", () => {
  it("signs in with Google's code, reads the user, refreshes on 401, and gets a back-office token", async () => {
    const authorize = new URL(`${oidc.url}/authorize`);
    authorize.search = new URLSearchParams({
      client_id: "console-test-client",
      redirect_uri: "http://127.0.0.1/login/google/callback",
      response_type: "code",
      scope: "openid email",
      state: "s",
    }).toString();
    const code = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!).searchParams.get(
      "code",
    )!;
    const signIn = await send("POST /auth/google {code}", "POST", "/auth/google", { code }, { token: null });
    expect(signIn).toMatchObject({
      status: 200,
      body: { user_token: expect.any(String), refresh_token: expect.any(String) },
    });
    userToken = signIn.body.user_token;

    const info = await send("GET /v1/users/get_info", "GET", "/v1/users/get_info");
    expect(info).toMatchObject({ status: 200, body: { email: "admin@example.com", user_type: "super_admin" } });

    const expired = await send("GET /v1/users/get_info", "GET", "/v1/users/get_info", undefined, {
      token: "expired.token.value",
    });
    expect(expired.status).toBe(401);
    const refreshed = await send(
      "POST /v1/users/generate_access_token {refresh_token}",
      "POST",
      "/v1/users/generate_access_token",
      { refresh_token: signIn.body.refresh_token },
      { token: null },
    );
    expect(refreshed).toMatchObject({
      status: 200,
      body: { user_token: expect.any(String), refresh_token: expect.any(String) },
    });
    userToken = refreshed.body.user_token;
    expect((await send("GET /v1/users/get_info", "GET", "/v1/users/get_info")).status).toBe(200);

    made.add("POST {back-office host}/generate_jwt_token");
    const cookie = await signInToConsole(host, "admin@example.com");
    const jwt = await settle(() =>
      tokenAction({
        request: new Request("http://localhost/generate_jwt_token", { method: "POST", headers: { cookie } }),
        context: testContext(host),
        params: {},
      }),
    );
    const { token } = (await jwt.json()) as { token: string };
    expect(token).toEqual(expect.any(String));
    const page = await settle(() =>
      dashboardLoader({
        request: new Request("http://localhost/backoffice/northfield/dashboard", {
          headers: { authorization: `Bearer ${token}` },
        }),
        context: testContext(host),
        params: { urlCode: "northfield" },
      }),
    );
    expect(page.status).toBe(200);
  });
});

describe("Clients and agents", () => {
  it("lists, searches, creates and updates clients; uploads a logo; exports and imports", async () => {
    const apps = await send("GET /v1/apps?status=active", "GET", "/v1/apps?status=active");
    expect(apps.status).toBe(200);
    const northfield = apps.body.apps.find((a: { url_code: string }) => a.url_code === "northfield");
    known.appId = northfield.id;
    const searched = await send(
      "GET /v1/apps?saerch (debounced search helper)",
      "GET",
      "/v1/apps?status=active&saerch=harbor",
    );
    expect(searched.body.apps.map((a: { url_code: string }) => a.url_code)).toEqual(["shopharbor-outfitters"]);

    const logo = await send("POST /v1/apps/logo_upload files[]", "POST", "/v1/apps/logo_upload", undefined, {
      form: multipart([{ field: "files[]", name: "logo.png", bytes: PNG_BYTES, type: "image/png" }]),
    });
    expect(logo).toMatchObject({ status: 200, body: { files: [{ url: expect.any(String) }] } });

    const body = {
      client_name: "Lakeside College",
      primary_website: "https://www.lakeside.edu",
      notes: "New client",
      url_code: "lakeside",
      project_url: "https://www.lakeside.edu/apply",
      market: "us_lakeside",
      logo_url: logo.body.files[0].url,
      country: "US",
      copy_market: "us_eduenroll",
      client_type: "higher_ed",
      onboard_existing_client: false,
      trigger_points: ["apply"],
      mode_env: "staging",
      insync_prod_app_id: null,
    };
    const created = await send("POST /v1/apps", "POST", "/v1/apps", body);
    expect(created.status).toBeLessThan(300);
    expect(created.body).toMatchObject({ url_code: "lakeside", client_name: "Lakeside College" });
    known.newAppId = created.body.id;
    const updated = await send("PUT /v1/apps/{id}", "PUT", `/v1/apps/${known.newAppId}`, {
      ...body,
      notes: "Onboarded",
    });
    expect(updated).toMatchObject({ status: 200, body: { response: { id: known.newAppId, notes: "Onboarded" } } });

    const exported = await send(
      "POST /v1/apps/{app_id}/exports/export",
      "POST",
      `/v1/apps/${known.newAppId}/exports/export`,
      {},
    );
    expect(exported.status).toBe(200);
    const files = await send("GET /v1/export_files", "GET", "/v1/export_files");
    expect(files).toMatchObject({ status: 200, body: { files: expect.arrayContaining([expect.any(String)]) } });
    const imported = await send("POST /v1/import_from_file {file_name}", "POST", "/v1/import_from_file", {
      file_name: files.body.files[0],
    });
    expect(imported.status).toBe(200);
  });

  it("creates an agent and updates it with the same body (no id), reads it back, uploads its logo", async () => {
    const agent = {
      app_id: known.appId,
      name: "Evening School",
      agent_type: "enrollment",
      site_code: "evening",
      logo: null,
      url: "https://www.northfield.edu/evening",
      status: "active",
      mode_env: "staging",
      metadata: {},
    };
    const created = await send(
      "POST /v1/apps/{app_id}/agents/update_agents (create)",
      "POST",
      `/v1/apps/${known.appId}/agents/update_agents`,
      agent,
    );
    expect(created).toMatchObject({ status: 200, body: { site_code: "evening", name: "Evening School" } });
    known.agentId = created.body.id;
    const updated = await send(
      "POST /v1/apps/{app_id}/agents/update_agents (update)",
      "POST",
      `/v1/apps/${known.appId}/agents/update_agents`,
      { ...agent, name: "Evening & Weekend School" },
    );
    expect(updated).toMatchObject({ status: 200, body: { id: known.agentId, name: "Evening & Weekend School" } });
    const read = await send(
      "GET /v1/apps/{app_id}/agents/{agent_id}",
      "GET",
      `/v1/apps/${known.appId}/agents/${known.agentId}`,
    );
    expect(read).toMatchObject({
      status: 200,
      body: {
        id: known.agentId,
        app_id: known.appId,
        name: "Evening & Weekend School",
        agent_type: "enrollment",
        site_code: "evening",
        url: agent.url,
        status: "active",
        mode_env: "staging",
        metadata: {},
      },
    });
    const logo = await send(
      "POST /v1/apps/{app_id}/agents/logo_upload",
      "POST",
      `/v1/apps/${known.appId}/agents/logo_upload`,
      undefined,
      { form: multipart([{ field: "file", name: "agent.png", bytes: PNG_BYTES, type: "image/png" }]) },
    );
    expect(logo).toMatchObject({ status: 200, body: { url: expect.any(String) } });
  });
});

describe("Users and access", () => {
  it("lists and upserts users, globally and per client with app_user.role", async () => {
    expect((await send("GET /v1/users", "GET", "/v1/users")).body.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: "admin@example.com" })]),
    );
    const upserted = await send("POST /v1/users/upsert {users[]}", "POST", "/v1/users/upsert", {
      users: [{ email: "dana@example.com", name: "Dana", user_type: "user" }],
    });
    expect(upserted).toMatchObject({
      status: 200,
      body: { users: [expect.objectContaining({ email: "dana@example.com" })] },
    });
    const added = await send(
      "POST /v1/apps/{appId}/users/upsert {users[]}",
      "POST",
      `/v1/apps/${known.appId}/users/upsert`,
      { users: [{ email: "dana@example.com", name: "Dana", app_user: { role: "client_admin" } }] },
    );
    expect(added.status).toBe(200);
    const members = await send("GET /v1/apps/{appId}/users", "GET", `/v1/apps/${known.appId}/users`);
    expect(members.body.users).toContainEqual(
      expect.objectContaining({
        email: "dana@example.com",
        app_user: expect.objectContaining({ role: "client_admin" }),
      }),
    );
  });
});

describe("Websites and URLs", () => {
  it("adds a website, lists it, and works its URLs through both drawers' calls", async () => {
    const created = await send(
      "POST /v1/apps/{appId}/websites/create_and_update {websites[]}",
      "POST",
      `/v1/apps/${known.appId}/websites/create_and_update`,
      {
        websites: [{ app_id: known.appId, url: site.base, site_map: "full_website", tags: ["Development"] }],
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    known.websiteId = created.body.websites[0].id;
    const listed = await send(
      "GET /v1/apps/{appId}/websites?app_name&page&page_size&query",
      "GET",
      `/v1/apps/${known.appId}/websites?app_name=northfield&page=1&page_size=25&query=127.0.0.1`,
    );
    expect(listed).toMatchObject({
      status: 200,
      body: { websites: [expect.objectContaining({ id: known.websiteId })], total_pages: 1, total_count: 1 },
    });

    const urlsPath = `/v1/apps/${known.appId}/websites/${known.websiteId}/urls`;
    const page = await until("the sitemap's URLs", async () => {
      const answer = await send(
        "GET /v1/apps/{appId}/websites/{websiteId}/urls?page&page_size&order_by&order&search&status&sitemap_refresh_review_status",
        "GET",
        `${urlsPath}?page=0&page_size=100&order_by=url&order=asc&search=&status=pending_review&sitemap_refresh_review_status=`,
      );
      return answer.body.data?.length >= 5 && answer;
    });
    expect(page.body).toMatchObject({
      data: expect.any(Array),
      count: expect.any(Number),
      total: expect.any(Number),
      default_refresh_day: expect.any(Number),
    });
    const nursing = page.body.data.find((u: { url: string }) => u.url.endsWith("/programs/nursing"));
    const about = page.body.data.find((u: { url: string }) => u.url.endsWith("/about"));
    known.urlIds = [nursing.id, about.id];

    const indexed = await send(
      "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status, url_ids}",
      "POST",
      `${urlsPath}/update_status`,
      { status: "to_be_indexed", url_ids: known.urlIds },
    );
    expect(indexed.status).toBe(200);
    await until("two pages indexed", async () => {
      const answer = await send(
        "GET /v1/apps/{appId}/urls (same query)",
        "GET",
        `/v1/apps/${known.appId}/urls?page=0&page_size=25&order_by=url&order=asc&status=indexed`,
      );
      return answer.body.data?.length === 2 && answer;
    });
    const forced = await send(
      "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status, url_ids, force_index}",
      "POST",
      `${urlsPath}/update_status`,
      { status: "to_be_indexed", url_ids: [nursing.id], force_index: true },
    );
    expect(forced.status).toBe(200);

    const counts = await send(
      "GET /v1/apps/{appId}/urls/status_counts",
      "GET",
      `/v1/apps/${known.appId}/urls/status_counts`,
    );
    expect(counts).toMatchObject({
      status: 200,
      body: { status_counts: expect.any(Object), total_count: expect.any(Number) },
    });

    const chunks = await until("the page's chunks", async () => {
      const answer = await send(
        "POST /v1/apps/{appId}/websites/{websiteId}/urls/fetch_cached_chunks {appId, url}",
        "POST",
        `${urlsPath}/fetch_cached_chunks`,
        { appId: known.appId, url: nursing.url },
      );
      return answer.body.chunks?.length > 0 && answer;
    });
    expect(chunks.body.chunks.map((c: { text: string }) => c.text).join(" ")).toContain(
      "Tuition is $12,400 per semester.",
    );

    const bulk = await send(
      "POST /v1/apps/{appId}/websites/{websiteId}/urls/bulk_create {urls[]}",
      "POST",
      `${urlsPath}/bulk_create`,
      { urls: [`${site.base}/extra-page`] },
    );
    expect(bulk).toMatchObject({ status: 200, body: { message: "Ok" } });
    const days = await send(
      "PUT /v1/apps/{appId}/websites/{websiteId}/urls/{urlId} {url:{refresh_days}}",
      "PUT",
      `${urlsPath}/${about.id}`,
      { url: { refresh_days: 14 } },
    );
    expect(days).toMatchObject({ status: 200, body: { refresh_days: 14 } });

    const skipped = await send(
      "POST /v1/apps/{appId}/urls/update_status",
      "POST",
      `/v1/apps/${known.appId}/urls/update_status`,
      { status: "to_be_skipped", url_ids: [about.id] },
    );
    expect(skipped.status).toBe(200);
    const everything = await send(
      "POST /v1/apps/{appId}/websites/{websiteId}/urls/update_status {status} (whole website)",
      "POST",
      `${urlsPath}/update_status`,
      { status: "to_be_skipped" },
    );
    expect(everything.status).toBe(200);

    const refresh = await send("POST /sitemap_refresh {id}", "POST", "/sitemap_refresh", { id: known.websiteId });
    expect(refresh.status).toBeLessThan(300);

    const exported = await send(
      "CSV export: up to 10000 rows with the current filters",
      "GET",
      `${urlsPath}?page=0&page_size=10000&order_by=url&order=asc`,
    );
    expect(exported.status).toBe(200);
    expect(exported.body.data.length).toBeGreaterThanOrEqual(5);
  });
});

describe("Files", () => {
  it("presigns, PUTs with the content type, completes, lists and tags a PDF", async () => {
    const presigned = await send(
      "POST /v1/files/presigned_urls?app_id&user_id {file_names[]}",
      "POST",
      `/v1/files/presigned_urls?app_id=${known.appId}&user_id=1`,
      { file_names: ["handbook.pdf"] },
    );
    expect(presigned).toMatchObject({
      status: 200,
      body: {
        presigned_urls: [
          expect.objectContaining({ url: expect.any(String), url_id: expect.any(Number), s3_path: expect.any(String) }),
        ],
      },
    });
    const target = presigned.body.presigned_urls[0];
    made.add("PUT {presigned url} with its content type");
    const put = await host.api.request(target.url, {
      method: "PUT",
      headers: { "content-type": "application/pdf" },
      body: new Uint8Array(makePdf([["Tuition is due on the first of March."]])),
    });
    expect(put.status).toBe(200);
    const completed = await send(
      "POST /v1/files/complete_upload {url_id, s3_path}",
      "POST",
      "/v1/files/complete_upload",
      { url_id: target.url_id, s3_path: target.s3_path },
    );
    expect(completed.status).toBe(200);
    const files = await send("GET /v1/files?app_id", "GET", `/v1/files?app_id=${known.appId}`);
    const file = files.body.files.find((f: { file_name: string }) => f.file_name === "handbook.pdf");
    known.fileId = file.id;
    const tagged = await send("PATCH /v1/files/{id} {app_id, tags[]}", "PATCH", `/v1/files/${known.fileId}`, {
      app_id: known.appId,
      tags: ["sandbox"],
    });
    expect(tagged.status).toBe(200);
    expect(JSON.stringify(tagged.body)).toContain("sandbox");
  });
});

describe("Controls, probing, prompts, finetuning", () => {
  it("reads and saves topics and the personality", async () => {
    const topics = await send(
      "GET /v1/controls?app_id&trigger_point&types=sensitive_topics,no_go_topics",
      "GET",
      `/v1/controls?app_id=${known.appId}&trigger_point=evening&types=sensitive_topics,no_go_topics`,
    );
    expect(topics).toMatchObject({ status: 200, body: { controls: expect.any(Array) } });
    const personality = await send(
      "GET /v1/controls?app_id&trigger_point&types=ai_personality_guidelines",
      "GET",
      `/v1/controls?app_id=${known.appId}&trigger_point=evening&types=ai_personality_guidelines`,
    );
    expect(personality.body.controls[0]).toMatchObject({
      internal_name: "ai_personality_guidelines",
      trigger_point: "evening",
    });

    const control = (internal_name: string, display_name: string, prompt_input_raw: string, disclaimer = "") => ({
      internal_name,
      display_name,
      prompt_input_raw,
      trigger_point: "evening",
      metadata: { disclaimer },
      app_id: known.appId,
    });
    const saved = await send("PUT /v1/controls {controls[], app_id}", "PUT", "/v1/controls", {
      app_id: known.appId,
      controls: [
        control("sensitive_topics", "Sensitive Topics", "Financial aid appeals", "Please contact the aid office."),
      ],
    });
    expect(saved.status).toBe(200);
    const own = await send(
      "PUT /v1/controls?app_id {controls[]} (personality save)",
      "PUT",
      `/v1/controls?app_id=${known.appId}`,
      {
        controls: [
          {
            ...control("ai_personality_guidelines", "Chatbot Personality", "Speak to working adults."),
            id: personality.body.controls[0].id ?? undefined,
          },
        ],
      },
    );
    expect(own).toMatchObject({
      status: 200,
      body: { controls: [expect.objectContaining({ prompt_input_raw: "Speak to working adults." })] },
    });
  });

  it("reads and saves probing guidelines and input prompts, and deletes a prompt", async () => {
    const probings = await send(
      "GET /v1/apps/{appId}/ai_probings?trigger_point&types=topics,topic_to_prob_mapping",
      "GET",
      `/v1/apps/${known.appId}/ai_probings?trigger_point=evening&types=topics,topic_to_prob_mapping`,
    );
    expect(probings.body.ai_probings.map((p: { internal_name: string }) => p.internal_name)).toEqual([
      "topics",
      "topic_to_prob_mapping",
    ]);
    const savedProbings = await send(
      "PUT /v1/apps/{appId}/ai_probings {ai_probings[], app_id}",
      "PUT",
      `/v1/apps/${known.appId}/ai_probings`,
      {
        app_id: known.appId,
        ai_probings: probings.body.ai_probings.map((p: object) => ({ ...p, prompt_input_raw: "Ask about schedules." })),
      },
    );
    expect(savedProbings.status).toBe(200);

    expect(
      (
        await send(
          "GET /v1/apps/{appId}/input_prompts?trigger_point",
          "GET",
          `/v1/apps/${known.appId}/input_prompts?trigger_point=evening`,
        )
      ).body,
    ).toMatchObject({ input_prompts: [] });
    const prompts = await send(
      "PUT /v1/apps/{appId}/input_prompts {input_prompts[]}",
      "PUT",
      `/v1/apps/${known.appId}/input_prompts`,
      {
        input_prompts: [
          { internal_name: "welcome", prompt_input_raw: "Welcome to evening classes.", trigger_point: "evening" },
        ],
      },
    );
    expect(prompts.status).toBe(200);
    known.promptId = prompts.body.input_prompts[0].id;
    expect(
      (
        await send(
          "DELETE /v1/apps/{appId}/input_prompts/{id}",
          "DELETE",
          `/v1/apps/${known.appId}/input_prompts/${known.promptId}`,
        )
      ).status,
    ).toBe(200);
  });

  it("lists, saves and bulk-deletes finetunings", async () => {
    const saved = await send(
      "POST /v1/controls/upsert_finetunings {finetunings[]}",
      "POST",
      "/v1/controls/upsert_finetunings",
      {
        finetunings: [
          {
            app_id: known.appId,
            trigger_point: "evening",
            finetuning_type: "url_pattern",
            pattern: "*/archive/*",
            penalty: 0.5,
          },
        ],
      },
    );
    expect(saved.status).toBe(200);
    const listed = await send(
      "GET /v1/controls/list_finetunings?app_id",
      "GET",
      `/v1/controls/list_finetunings?app_id=${known.appId}`,
    );
    known.tuningIds = listed.body.finetunings.map((t: { id: number }) => t.id);
    expect(known.tuningIds).toHaveLength(1);
    const deleted = await send(
      "DELETE /v1/controls/bulk_delete_finetunings {app_id, ids[]}",
      "DELETE",
      "/v1/controls/bulk_delete_finetunings",
      { app_id: known.appId, ids: known.tuningIds },
    );
    expect(deleted.status).toBe(200);
    expect(
      (
        await send(
          "GET /v1/controls/list_finetunings?app_id",
          "GET",
          `/v1/controls/list_finetunings?app_id=${known.appId}`,
        )
      ).body.finetunings,
    ).toEqual([]);
  });
});

describe("Appearance and testing", () => {
  it("saves to stage, compares, pushes, uploads an image and builds the embed script", async () => {
    const query = `appId=${known.appId}&triggerPoint=evening`;
    const shown = await send("GET /v1/appearances?appId&triggerPoint", "GET", `/v1/appearances?${query}`);
    expect(shown.status).toBe(200);
    const saved = await send(
      "PUT /v1/appearances?appId&triggerPoint {appearance:{value}}",
      "PUT",
      `/v1/appearances?${query}`,
      { appearance: { value: { ...shown.body.data, bot_name: "Eve" } } },
    );
    expect(saved.status).toBe(200);
    const diff = await send(
      "POST /v1/appearances/get_diff?appId&triggerPoint {appearance:{value}}",
      "POST",
      `/v1/appearances/get_diff?${query}`,
      { appearance: { value: { ...shown.body.data, bot_name: "Eve" } } },
    );
    expect(diff).toMatchObject({
      status: 200,
      body: {
        current_prod_style_guide: expect.any(Object),
        current_stage_style_guide: expect.objectContaining({ bot_name: "Eve" }),
      },
    });
    expect(diff.body.current_prod_style_guide.bot_name).not.toBe("Eve");
    const pushed = await send(
      "PUT /v1/appearances?appId&triggerPoint {appearance:{value}, targetEnv: production}",
      "PUT",
      `/v1/appearances?${query}`,
      { appearance: { value: diff.body.current_stage_style_guide }, targetEnv: "production" },
    );
    expect(pushed.status).toBe(200);
    const after = await send(
      "POST /v1/appearances/get_diff?appId&triggerPoint {appearance:{value}}",
      "POST",
      `/v1/appearances/get_diff?${query}`,
      { appearance: { value: diff.body.current_stage_style_guide } },
    );
    expect(after.body.current_prod_style_guide.bot_name).toBe("Eve");

    const image = await send(
      "POST /v1/appearances/upload_file?appId&triggerPoint",
      "POST",
      `/v1/appearances/upload_file?${query}`,
      undefined,
      { form: multipart([{ field: "files[]", name: "avatar.png", bytes: PNG_BYTES, type: "image/png" }]) },
    );
    expect(image).toMatchObject({ status: 200, body: { url: expect.any(String) } });
    const script = await send(
      "GET /v1/bot_installs?app_id&env&app_name",
      "GET",
      `/v1/bot_installs?app_id=${known.appId}&env=stage&app_name=evening`,
    );
    expect(script).toMatchObject({ status: 200, body: { content: expect.stringContaining("<script") } });
  });
});

describe("Integrations and personalisation", () => {
  it("reads and saves integrations, with staging by default", async () => {
    const shown = await send("GET /v1/apps/{appId}/integrations", "GET", `/v1/apps/${known.appId}/integrations`);
    expect(shown).toMatchObject({ status: 200, body: { integrations: expect.any(Array) } });
    // What to send comes from the catalogue the GET answered: a CRM system, its first use case and its fields.
    const system = shown.body.configs.CRM[0] as {
      name: string;
      integration_settings: { usecase: string; settings_json: { name: string }[] }[];
    };
    const usecase = system.integration_settings[0];
    const settings = Object.fromEntries(
      usecase.settings_json.map((field) => [
        field.name,
        field.name.includes("url") ? "https://crm.example.com" : `value-of-${field.name}`,
      ]),
    );
    const saved = await send(
      "POST /v1/apps/{appId}/integrations/upsert {integrations[]}",
      "POST",
      `/v1/apps/${known.appId}/integrations/upsert`,
      {
        integrations: [
          { name: "CRM link", usecase: usecase.usecase, settings_json: settings, external_system: system.name },
        ],
      },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.integrations[0].environment).toBe("staging");
  });

  it("reads, saves, imports and deletes profile fields, and starts the recommendation build", async () => {
    expect(
      (
        await send(
          "GET /v1/apps/{appId}/personalisation_config_details",
          "GET",
          `/v1/apps/${known.appId}/personalisation_config_details`,
        )
      ).status,
    ).toBe(200);
    const base = `/v1/apps/${known.newAppId}/personalisation_config_details`;
    const saved = await send(
      "POST /v1/apps/{appId}/personalisation_config_details/create_and_update {personalisation_config_details[]}",
      "POST",
      `${base}/create_and_update`,
      {
        personalisation_config_details: [
          { name: "email", field_type: "text", group: "Personal Contact Information", model_type: "user_profile" },
          { name: "program_name", field_type: "text", group: "Program Structure", model_type: "program_profile" },
        ],
      },
    );
    expect(saved.status).toBe(200);
    known.recordId = saved.body.personalisation_config_details.find((f: { name: string }) => f.name === "email").id;
    const deleted = await send(
      "DELETE /v1/apps/{appId}/personalisation_config_details/delete_record {record_id}",
      "DELETE",
      `${base}/delete_record`,
      { record_id: known.recordId },
    );
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    const build = await send(
      "POST /v1/apps/{appId}/personalisation_config_details/recommendation_model_init {}",
      "POST",
      `${base}/recommendation_model_init`,
      {},
    );
    expect(build, JSON.stringify(build.body)).toMatchObject({ status: 200, body: { success: true } });
    // A model to copy: importing an empty one is refused (it would only delete fields).
    const source = await send(
      "POST /v1/apps/{appId}/personalisation_config_details/create_and_update {personalisation_config_details[]}",
      "POST",
      `/v1/apps/${known.appId}/personalisation_config_details/create_and_update`,
      {
        personalisation_config_details: [
          { name: "intended_major", field_type: "text", group: "Learning Interests", model_type: "user_profile" },
        ],
      },
    );
    expect(source.status, JSON.stringify(source.body)).toBe(200);
    const imported = await send(
      "POST /v1/apps/{appId}/personalisation_config_details/import_config {import_app_code}",
      "POST",
      `${base}/import_config`,
      { import_app_code: "northfield" },
    );
    expect(imported, JSON.stringify(imported.body)).toMatchObject({
      status: 200,
      body: { status: "success", configs: expect.any(Array) },
    });
  });
});

describe("Admin downloads", () => {
  it("lists the latest files and answers a download link", async () => {
    const latest = await send(
      "GET /v1/admin_downloads/latest_files?app_id",
      "GET",
      `/v1/admin_downloads/latest_files?app_id=${known.newAppId}`,
    );
    expect(latest).toMatchObject({ status: 200, body: { files: expect.any(Object) } });
    const [fileKey] = Object.values(latest.body.files).map((f) => (f as { key: string }).key);
    expect(fileKey).toEqual(expect.any(String));
    const link = await send("POST /v1/admin_downloads/download {file_key}", "POST", "/v1/admin_downloads/download", {
      file_key: fileKey,
    });
    expect(link).toMatchObject({ status: 200, body: { download_url: expect.any(String) } });
  });
});

describe("coverage", () => {
  it("made every call of section 7", () => {
    expect(SPEC_CALLS.filter((call) => !made.has(call))).toEqual([]);
  });

  it("documents every API call of section 7 in /v1/openapi.json, with the spec's body shapes", async () => {
    const document = await (await host.api.request("/v1/openapi.json")).json();
    const shape = (path: string) => path.split("?")[0].replace(/\{[^}]+\}/g, "{}");
    const documented = new Set(
      Object.entries(document.paths as Record<string, object>).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${shape(path)}`),
      ),
    );
    const apiCalls = SPEC_CALLS.map((call) => call.split(" "))
      .filter(([, path]) => path.startsWith("/"))
      .map(([method, path]) => `${method} ${shape(path)}`);
    expect(apiCalls.filter((call) => !documented.has(call))).toEqual([]);

    const putAppearance = document.paths["/v1/appearances"].put.requestBody.content["application/json"].schema;
    expect(putAppearance.required).toContain("appearance");
    expect(Object.keys(putAppearance.properties)).toEqual(["appearance", "targetEnv"]);
    const diff = document.paths["/v1/appearances/get_diff"].post;
    expect(Object.keys(diff.requestBody.content["application/json"].schema.properties)).toEqual(["appearance"]);
    expect(Object.keys(diff.responses[200].content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["current_prod_style_guide", "current_stage_style_guide"]),
    );
  });
});
