import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;
let pageUrl: string;

const PAGE = `
  <h1>Scholarships</h1>
  <p>Northfield awards merit scholarships to first-year students with strong academic records.</p>
  <div class="campaign-box"><p>Limited offer: apply this week and win a campus hoodie.</p></div>
  <p>Need-based grants are available to students who file the FAFSA before the March deadline.</p>
  <table><tr><td>Legacy fee table 2009: 400 dollars</td></tr></table>
  <p>Every award is renewable for four years while you keep a 3.0 grade point average.</p>`;

beforeAll(async () => {
  site = await startFixtureSite();
  site.setPage("/scholarships", "Scholarships | Northfield", PAGE);
  pageUrl = `${site.base}/scholarships`;
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url: pageUrl, site_map: "few_urls" }] },
  });
  websiteId = created.body.websites[0].id;
  await until(
    "the URL list",
    async () => (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls`, { token })).body.data?.length === 1,
  );
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** Asks for indexing (as the Index menu does) and answers the chunk text once the page is indexed again. */
async function indexAndRead() {
  const before = (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls`, { token })).body.data[0];
  await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
    token,
    body: { status: "to_be_indexed" },
  });
  await until("the page to be indexed", async () => {
    const row = (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls`, { token })).body.data[0];
    return row.status === "indexed" && row.indexed_at !== before.indexed_at;
  });
  const cached = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
    token,
    body: { appId, url: pageUrl },
  });
  return cached.body.chunks.map((c: { text: string }) => c.text).join("\n");
}

const saveRules = (metadata: unknown) =>
  call("POST", "/v1/controls/upsert_finetunings", {
    token,
    body: { finetunings: [{ app_id: appId, finetuning_type: "html_tags_to_remove", metadata }] },
  });

describe("HTML tag clean-up rules at indexing", () => {
  it("without a rule, the campaign box and the table are part of the indexed text", async () => {
    const text = await indexAndRead();
    expect(text).toContain("merit scholarships");
    expect(text).toContain("Limited offer");
    expect(text).toContain("Legacy fee table");
  });

  it("with a rule for .campaign-box and table, the next indexing leaves them out and keeps the rest", async () => {
    expect((await saveRules('{"tags": [".campaign-box", "table"]}')).status).toBe(200);
    const text = await indexAndRead();
    expect(text).toContain("merit scholarships");
    expect(text).toContain("renewable for four years");
    expect(text).not.toContain("Limited offer");
    expect(text).not.toContain("Legacy fee table");
  });

  it("once the rule is deleted, the next indexing brings them back", async () => {
    const rules = (await call("GET", `/v1/controls/list_finetunings?app_id=${appId}`, { token })).body.finetunings;
    await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
      token,
      body: { app_id: appId, ids: rules.map((r: { id: number }) => r.id) },
    });
    const text = await indexAndRead();
    expect(text).toContain("Limited offer");
    expect(text).toContain("Legacy fee table");
  });
});
