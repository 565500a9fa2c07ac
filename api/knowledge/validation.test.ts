import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/** The websites and URLs API with the production default: the crawler may not reach private addresses. */
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

const save = (website: Record<string, unknown>) =>
  call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, site_map: "full_website", ...website }] },
  });

describe("website and URL input", () => {
  it("refuses addresses the crawler must never visit", async () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://localhost:3000/admin",
      "http://10.0.0.8/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://192.168.1.1/",
    ]) {
      const { status, body } = await save({ url });
      expect({ url, status }).toEqual({ url, status: 400 });
      expect(body.errors["websites.0.url"][0]).toMatch(/private or local address/);
    }
    expect((await save({ url: "ftp://example.com/" })).body.errors["websites.0.url"]).toEqual([
      "Enter a full http(s) address",
    ]);
    // The one exception: this server's own demo site.
    const demo = host.deps.config.crawlLocalExceptions[0];
    expect((await save({ url: `${demo}programs/`, site_map: "few_urls" })).status).toBe(200);
    // Written as people write it (scheme and host in capitals, no slash at the end), it is still that site.
    const shouted = demo.replace(/^http:\/\/127\.0\.0\.1/, "HTTP://127.0.0.1").replace(/\/$/, "");
    expect(shouted).not.toBe(demo);
    expect(
      (await save({ url: shouted, site_map: "few_urls" })).body.errors?.["websites.0.url"] ?? [],
    ).not.toContainEqual(expect.stringMatching(/private or local address/));
    expect((await save({ url: `${demo.replace(/\/$/, "")}x/` })).body.errors["websites.0.url"][0]).toMatch(
      /private or local address/,
    );
    expect((await save({ url: "" })).body.errors["websites.0.url"]).toEqual(["This string is required"]);
    // An address is listed and shown wherever its pages are: a password in it would be too.
    expect((await save({ url: "https://editor:s3cret@example.edu/" })).body.errors["websites.0.url"]).toEqual([
      "Leave the user name and password out of the address",
    ]);
    const given = await save({
      url: "https://example.edu/",
      site_map: "few_urls",
      urls: ["https://a:b@example.edu/x"],
    });
    expect(given.body.errors["websites.0.urls.0"]).toEqual(["Leave the user name and password out of the address"]);
    // Too long is said as such, not as missing.
    expect((await save({ url: `https://${"a".repeat(3000)}.edu/` })).body.errors["websites.0.url"]).toEqual([
      "Keep web addresses to at most 2,000 characters",
    ]);
    const unknownMode = await save({ url: "https://example.edu/", site_map: "everything" });
    expect(unknownMode.status).toBe(400);
    expect(unknownMode.body.errors["websites.0.site_map"]).toEqual(["Choose full_website or few_urls"]);
  });

  it("answers 400 for unknown statuses and page sizes, 413 for huge bodies", async () => {
    const created = await save({ url: "https://www.example.edu/" });
    const websiteId = created.body.websites[0].id;
    const bad = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "indexed" },
    });
    expect(bad.body.errors.status).toEqual(["status must be one of to_be_indexed, to_be_skipped, to_be_deleted"]);
    expect((await call("GET", `/v1/apps/${appId}/websites?page_size=1000`, { token })).status).toBe(400);
    expect((await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=20000`, { token })).status).toBe(
      400,
    );
    expect(
      (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?order_by=password`, { token })).status,
    ).toBe(400);
    const huge = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token,
      rawBody: JSON.stringify({
        urls: Array.from({ length: 6000 }, (_, i) => `https://www.example.edu/${"x".repeat(1800)}/${i}`),
      }),
    });
    expect(huge).toEqual({ status: 413, body: { message: "The request body is larger than 10 MB" } });
    const private_ = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token,
      body: { urls: ["http://127.0.0.1:5432/"] },
    });
    expect(private_.body.errors["urls.0"][0]).toMatch(/private or local address/);
  });

  it("finds addresses by the letters people type, beyond ASCII, though they are stored percent-encoded", async () => {
    const created = await save({ url: "https://intl.example.org/" });
    expect(created.status).toBe(200);
    const websiteId = created.body.websites[0].id;
    const added = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token,
      body: {
        urls: [
          "https://intl.example.org/es/admisión",
          "https://intl.example.org/zh/学费",
          "https://intl.example.org/en/fees",
        ],
      },
    });
    expect(added.status).toBe(200);
    const found = async (search: string) => {
      const answer = await call(
        "GET",
        `/v1/apps/${appId}/websites/${websiteId}/urls?search=${encodeURIComponent(search)}`,
        {
          token,
        },
      );
      return (answer.body.data as { url: string }[]).map((row) => row.url);
    };
    expect(await found("admisión")).toEqual(["https://intl.example.org/es/admisi%C3%B3n"]);
    // Typed decomposed, as some keyboards send it.
    expect(await found("admisio\u0301n")).toEqual(["https://intl.example.org/es/admisi%C3%B3n"]);
    expect(await found("学费")).toEqual(["https://intl.example.org/zh/%E5%AD%A6%E8%B4%B9"]);
    expect(await found("%C3%B3")).toEqual(["https://intl.example.org/es/admisi%C3%B3n"]);
    expect(await found("fees")).toEqual(["https://intl.example.org/en/fees"]);
  });

  it("finds pages by their host's letters beyond ASCII, though the host is stored in punycode", async () => {
    const created = await save({ url: "https://bücher.example.org/" });
    expect(created.status).toBe(200);
    const websiteId = created.body.websites[0].id;
    const added = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token,
      body: { urls: ["https://bücher.example.org/katalog"] },
    });
    expect(added.status).toBe(200);
    const found = async (search: string) =>
      (await call("GET", `/v1/apps/${appId}/urls?search=${encodeURIComponent(search)}`, { token })).body.data.map(
        (row: { url: string }) => row.url,
      );
    expect(await found("bücher")).toEqual(["https://xn--bcher-kva.example.org/katalog"]);
    expect(await found("BÜCHER.example.org/kat")).toEqual(["https://xn--bcher-kva.example.org/katalog"]);
    expect(await found("xn--bcher")).toEqual(["https://xn--bcher-kva.example.org/katalog"]);
  });

  it("lists exactly the address ?url= names, where a search for a home page holds every page of its site", async () => {
    const created = await save({ url: "https://exact.example.org/" });
    expect(created.status).toBe(200);
    const websiteId = created.body.websites[0].id;
    const added = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token,
      body: { urls: ["https://exact.example.org/", "https://exact.example.org/fees"] },
    });
    expect(added.status).toBe(200);
    const listed = (query: string) => call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?${query}`, { token });
    const rows = async (query: string) =>
      ((await listed(query)).body.data as { url: string }[]).map((row) => row.url).sort();
    const home = encodeURIComponent("https://exact.example.org/");
    expect(await rows(`search=${home}`)).toEqual(["https://exact.example.org/", "https://exact.example.org/fees"]);
    expect(await rows(`url=${home}`)).toEqual(["https://exact.example.org/"]);
    expect(
      (await call("GET", `/v1/apps/${appId}/urls?url=${home}`, { token })).body.data.map(
        (row: { url: string }) => row.url,
      ),
    ).toEqual(["https://exact.example.org/"]);
    // Bounded, and free of control characters, as every string the API takes.
    for (const bad of [`${"https://exact.example.org/".padEnd(2001, "a")}`, "https://exact.example.org/\u0001"]) {
      const refused = await listed(`url=${encodeURIComponent(bad)}`);
      expect(refused.status, bad.slice(0, 40)).toBe(400);
    }
  });

  it("refuses a sitemap refresh of a website of given URLs, which has no sitemap, saying why", async () => {
    const created = await save({
      url: "https://www.example.net/",
      site_map: "few_urls",
      urls: ["https://www.example.net/a"],
    });
    const refused = await call("POST", "/sitemap_refresh", { token, body: { id: created.body.websites[0].id } });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: "This website's pages were given one by one (few URLs): it has no sitemap to refresh" },
    });
  });

  it("keeps other clients' websites out of reach", async () => {
    const [harbor] = await host.deps.db
      .select()
      .from(clientApps)
      .where(eq(clientApps.urlCode, "shopharbor-outfitters"));
    expect((await call("GET", `/v1/apps/${harbor.id}/websites`, { token })).status).toBe(404);
    const created = await save({ url: "https://www.example.org/" });
    const admin = (await signInAs(host, "admin@example.com")).user_token;
    expect(
      (await call("GET", `/v1/apps/${harbor.id}/websites/${created.body.websites[0].id}/urls`, { token: admin }))
        .status,
    ).toBe(404);
    const viewer = (await signInAs(host, "client.user@example.com")).user_token;
    expect(
      (await call("POST", "/sitemap_refresh", { token: viewer, body: { id: created.body.websites[0].id } })).status,
    ).toBe(403);
  });

  it("answers a sitemap refresh of another client's website exactly as one of no website", async () => {
    const [harbor] = await host.deps.db
      .select()
      .from(clientApps)
      .where(eq(clientApps.urlCode, "shopharbor-outfitters"));
    const admin = (await signInAs(host, "admin@example.com")).user_token;
    const theirs = await call("POST", `/v1/apps/${harbor.id}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ app_id: harbor.id, site_map: "full_website", url: "https://www.harbor.example/" }] },
    });
    const foreign = await call("POST", "/sitemap_refresh", { token, body: { id: theirs.body.websites[0].id } });
    const missing = await call("POST", "/sitemap_refresh", { token, body: { id: 987_654 } });
    expect(foreign).toEqual({ status: 404, body: { message: "Website not found" } });
    expect(missing).toEqual(foreign);
  });
});
