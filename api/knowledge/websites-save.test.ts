import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, websites } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/** POST /v1/apps/:id/websites/create_and_update: all rows or none, and an answer naming every row saved. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let otherAppId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  token = (await signInAs(host, "admin@example.com")).user_token;
  [{ id: appId }, { id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values([
      { clientName: "Many sites", urlCode: "many-sites" },
      { clientName: "Elsewhere", urlCode: "elsewhere-sites" },
    ])
    .returning();
});
afterAll(() => host?.close());

const save = (rows: object[]) =>
  call("POST", `/v1/apps/${appId}/websites/create_and_update`, { token, body: { websites: rows } });

describe("saving websites", () => {
  it("answers every row saved, also for a client with more than a page of websites", async () => {
    const existing = await host.deps.db
      .insert(websites)
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          appId,
          url: `https://site${i}.example.edu/`,
          status: "sitemap_generated",
        })),
      )
      .returning({ id: websites.id, url: websites.url });
    const last = existing[119];
    const { status, body } = await save([
      { id: last.id, app_id: appId, url: last.url, site_map: "full_website", tags: ["Production"] },
      { app_id: appId, url: "https://new.example.edu/", site_map: "full_website" },
    ]);
    expect(status).toBe(200);
    expect(body.websites.map((w: { url: string }) => w.url)).toEqual([last.url, "https://new.example.edu/"]);
    expect(body.websites[0].tags).toEqual(["Production"]);
  });

  it("leaves every row as it was when one of them cannot be saved", async () => {
    const [first, second] = await host.deps.db
      .insert(websites)
      .values([
        { appId, url: "https://first.example.org/", status: "sitemap_generated" },
        { appId, url: "https://second.example.org/", status: "sitemap_generated" },
      ])
      .returning();
    const [foreign] = await host.deps.db
      .insert(websites)
      .values({ appId: otherAppId, url: "https://foreign.example.org/" })
      .returning();
    const changed = (row: { id: number; url: string }) => ({
      id: row.id,
      app_id: appId,
      url: row.url,
      site_map: "full_website",
      skip_patterns: ["/news/"],
    });
    const { status, body } = await save([
      changed(first),
      changed(second),
      changed(foreign),
      { app_id: appId, url: "https://third.example.org/", site_map: "full_website" },
    ]);
    expect(status).toBe(404);
    expect(body.message).toBe("Website not found");
    const after = await host.deps.db
      .select()
      .from(websites)
      .where(inArray(websites.id, [first.id, second.id, foreign.id]));
    for (const row of after) {
      expect(row.skipPatterns).toEqual([]);
      if (row.appId === appId) expect(row.status).toBe("sitemap_generated");
    }
    const created = await host.deps.db
      .select()
      .from(websites)
      .where(inArray(websites.url, ["https://third.example.org/"]));
    expect(created).toEqual([]);
  });
});
