import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, configChanges, websites } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/**
 * A client has one website of an address, however the address is written. The host seeds the demo
 * site as a website (nothing is crawled: no jobs are handled).
 */
const DEMO = "http://127.0.0.1:9/demo-site/";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let otherAppId: number;

beforeAll(async () => {
  host = await startTestHost({ demoSiteUrl: DEMO, crawlLocalExceptions: [DEMO] }, {}, { work: false });
  call = apiCaller(host);
  token = (await signInAs(host, "admin@example.com")).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  appId = apps.find((app) => app.urlCode === "northfield")!.id;
  otherAppId = apps.find((app) => app.urlCode !== "northfield")!.id;
});
afterAll(() => host?.close());

const save = (rows: object[], app = appId) =>
  call("POST", `/v1/apps/${app}/websites/create_and_update`, {
    token,
    body: { websites: rows.map((row) => ({ app_id: app, site_map: "few_urls", ...row })) },
  });
const websitesOf = (app = appId) => host.deps.db.select().from(websites).where(eq(websites.appId, app));
const additionsOf = async (url: string) =>
  (
    await host.deps.db
      .select()
      .from(configChanges)
      .where(and(eq(configChanges.appId, appId), eq(configChanges.kind, "website")))
  ).filter((change) => change.summary === `Website ${url} added`);

describe("a website the client already has", () => {
  it("is refused on its row's address, however the address is written, and nothing is saved or logged", async () => {
    const first = await save([{ url: "https://www.example.com/" }]);
    expect(first.status).toBe(200);
    const before = await websitesOf();
    for (const url of [
      "https://www.example.com/",
      "https://www.example.com",
      "HTTPS://WWW.Example.COM:443/#top",
      "  https://www.example.com/  ",
    ]) {
      const again = await save([{ url }]);
      expect({ url, status: again.status }).toEqual({ url, status: 400 });
      expect(again.body).toEqual({
        message: "Some websites could not be saved",
        errors: { "websites.0.url": ["This client already has the website https://www.example.com/"] },
      });
    }
    expect(await websitesOf()).toHaveLength(before.length);
    expect(await additionsOf("https://www.example.com/")).toHaveLength(1);
  });

  it("tells other paths, queries and schemes apart, and leaves other clients alone", async () => {
    const saved = await save([
      { url: "https://www.example.com/programs" },
      { url: "https://www.example.com/?lang=fr" },
      { url: "http://www.example.com/" },
    ]);
    expect(saved.status).toBe(200);
    expect((await save([{ url: "https://www.example.com/" }], otherAppId)).status).toBe(200);
  });

  it("refuses the seeded demo site's address, which would crawl the same pages into a second website", async () => {
    expect((await websitesOf()).filter((w) => w.url === DEMO)).toHaveLength(1);
    const again = await save([{ url: DEMO }]);
    expect(again.status).toBe(400);
    expect(again.body.errors["websites.0.url"]).toEqual([`This client already has the website ${DEMO}`]);
    expect((await websitesOf()).filter((w) => w.url.startsWith("http://127.0.0.1:9/demo-site"))).toHaveLength(1);
  });

  it("refuses two new rows of one address in one save, on the later row, saving neither", async () => {
    const before = await websitesOf();
    const twice = await save([
      { url: "https://twice.example.org/" },
      { url: "https://unique.example.org/" },
      { url: "https://TWICE.example.org" },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({
      "websites.2.url": ["The same website is in another row of this save"],
    });
    expect(await websitesOf()).toHaveLength(before.length);
  });

  it("refuses an existing website moved onto another's address, but not one keeping its own", async () => {
    const created = await save([{ url: "https://one.example.net/" }, { url: "https://two.example.net/" }]);
    const [one, two] = created.body.websites as { id: number; url: string }[];
    const moved = await save([{ id: two.id, url: "https://one.example.net" }]);
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual({
      "websites.0.url": ["This client already has the website https://one.example.net/"],
    });
    // Its own address, written another way, with new tags: saved.
    const kept = await save([{ id: one.id, url: "https://one.example.net", tags: ["Production"] }]);
    expect(kept.status).toBe(200);
    // Two websites trading addresses in one save leave no two alike.
    const swapped = await save([
      { id: one.id, url: "https://two.example.net/" },
      { id: two.id, url: "https://one.example.net/" },
    ]);
    expect(swapped.status).toBe(200);
  });

  it("still saves a website that had a twin before the rule, as long as its address stays", async () => {
    const [older, twin] = await host.deps.db
      .insert(websites)
      .values([
        { appId, url: "https://legacy.example.edu/" },
        { appId, url: "https://legacy.example.edu" },
      ])
      .returning();
    const tagged = await save([{ id: twin.id, url: twin.url, tags: ["Staged"] }]);
    expect(tagged.status).toBe(200);
    expect(older.id).toBeLessThan(twin.id);
  });
});
