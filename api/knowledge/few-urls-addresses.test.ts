import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

/** A few_urls website's pages are stored as '+ Links' and sitemaps store them: one URL a page. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

async function addFewUrls(url: string, given?: string[]) {
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url, site_map: "few_urls", ...(given ? { urls: given } : {}) }] },
  });
  expect(created.status).toBe(200);
  const websiteId: number = created.body.websites[0].id;
  const pages = async () =>
    (await host.deps.db.select().from(urls).where(eq(urls.websiteId, websiteId))).map((row) => row.url).sort();
  await until("the website's pages", async () => (await pages()).length > 0);
  const links = (addresses: string[]) =>
    call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, { token, body: { urls: addresses } });
  return { pages, links };
}

describe("a few_urls website's pages", () => {
  it("store its address as a page's address, so '+ Links' of it finds the page it has", async () => {
    const website = await addFewUrls("https://Few.Example.edu");
    expect(await website.pages()).toEqual(["https://few.example.edu/"]);
    const again = await website.links(["https://few.example.edu/"]);
    expect(again.body).toEqual({ message: "Ok", created: 0, existing: 1 });
    expect(await website.pages()).toEqual(["https://few.example.edu/"]);
  });

  it("store a host of letters beyond ASCII as it is requested, one URL however it is written", async () => {
    const website = await addFewUrls("https://bücher.example/");
    expect(await website.pages()).toEqual(["https://xn--bcher-kva.example/"]);
    const again = await website.links(["https://xn--bcher-kva.example/"]);
    expect(again.body).toEqual({ message: "Ok", created: 0, existing: 1 });
  });

  it("find a root stored before without its final slash, rather than add it again", async () => {
    const website = await addFewUrls("https://older.example.edu/");
    const [{ websiteId }] = await host.deps.db
      .select({ websiteId: urls.websiteId })
      .from(urls)
      .where(eq(urls.url, "https://older.example.edu/"));
    await host.deps.db.update(urls).set({ url: "https://Older.example.edu" }).where(eq(urls.websiteId, websiteId));
    const again = await website.links(["https://older.example.edu/"]);
    expect(again.body).toEqual({ message: "Ok", created: 0, existing: 1 });
    expect(await website.pages()).toEqual(["https://Older.example.edu"]);
  });

  it("take each given page once, whatever its host's case or fragment", async () => {
    const website = await addFewUrls("https://given.example.edu/", [
      "https://given.example.edu/a#top",
      "https://GIVEN.example.edu/a",
      "https://given.example.edu/b",
    ]);
    await until("both given pages", async () => (await website.pages()).length >= 2);
    expect(await website.pages()).toEqual(["https://given.example.edu/a", "https://given.example.edu/b"]);
  });
});
