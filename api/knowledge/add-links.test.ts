import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/** '+ Links' through bulk_create: a website has one URL of a page, however its address is written. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;

beforeAll(async () => {
  // No jobs handled: nothing is crawled, the URLs stay as the test adds them.
  host = await startTestHost({}, {}, { work: false });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

describe("links added to a website", () => {
  let websiteId: number;
  const bulk = (links: string[]) =>
    call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, { token, body: { urls: links } });
  const pagesOf = async () =>
    (await host.deps.db.select().from(urls).where(eq(urls.websiteId, websiteId))).map((row) => row.url).sort();

  beforeAll(async () => {
    const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token,
      body: { websites: [{ app_id: appId, url: "https://links.example.edu/", site_map: "few_urls" }] },
    });
    websiteId = created.body.websites[0].id;
  });

  it("count a page once whatever its host's case or fragment, and say how many the website had", async () => {
    const first = await bulk([
      "https://links.example.edu/a",
      "https://LINKS.EXAMPLE.EDU/a",
      "https://links.example.edu/a#frag",
    ]);
    expect(first.body).toEqual({ message: "Ok", created: 1, existing: 0 });
    expect(await pagesOf()).toEqual(["https://links.example.edu/a"]);

    const again = await bulk(["https://links.example.edu/a#other", "https://links.example.edu/b"]);
    expect(again.body).toEqual({ message: "Ok", created: 1, existing: 1 });
    expect(await pagesOf()).toEqual(["https://links.example.edu/a", "https://links.example.edu/b"]);
  });

  it("refuses a page of another host, line by line, adding none of the links", async () => {
    const refused = await bulk(["https://links.example.edu/c", "https://other-host.example.com/page"]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      "urls.1": ["This page is not on links.example.edu; add a website for other-host.example.com to index it"],
    });
    expect(await pagesOf()).not.toContain("https://links.example.edu/c");
  });

  it("names every line to fix in one answer: addresses that are none beside pages of another host", async () => {
    const refused = await bulk(["https://other-host.example.com/page", "not a url", "https://links.example.edu/d"]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      "urls.0": ["This page is not on links.example.edu; add a website for other-host.example.com to index it"],
      "urls.1": ["Enter full http(s) addresses"],
    });
    expect(await pagesOf()).not.toContain("https://links.example.edu/d");
  });

  it("refuses a link with a user name or password in it, naming its row, adding none of the links", async () => {
    const refused = await bulk([
      "https://links.example.edu/e",
      "https://editor:s3cret@links.example.edu/f",
      "https://editor@links.example.edu/g",
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      message: "Some URLs cannot be added",
      errors: {
        "urls.1": ["Leave the user name and password out of the address"],
        "urls.2": ["Leave the user name and password out of the address"],
      },
    });
    const stored = await pagesOf();
    expect(stored).not.toContain("https://links.example.edu/e");
    expect(stored.filter((url) => url.includes("@"))).toEqual([]);
  });

  it("finds a page the website got from a sitemap written in another case", async () => {
    await host.deps.db.insert(urls).values({ appId, websiteId, url: "https://Links.Example.edu/from-sitemap" });
    const known = await bulk(["https://links.example.edu/from-sitemap", "https://links.example.edu/From-Sitemap"]);
    // The path's case names another page.
    expect(known.body).toEqual({ message: "Ok", created: 1, existing: 1 });
  });
});
