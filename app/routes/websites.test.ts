import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startFixtureSite } from "../../tests/support/fixture-site";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import type { Website } from "@contract";
import {
  action as websitesAction,
  loader as websitesLoader,
} from "./$appName.agent.$agentName.knowledge-store.websites";
import { until } from "../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let apiToken: string;

beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 200 });
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 1000 });
  call = apiCaller(host);
  apiToken = (await signInAs(host, "client.admin@example.com")).user_token;
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const PAGE = "/northfield/agent/enrollment/knowledge-store/websites";
const params = { appName: "northfield", agentName: "enrollment" };
const args = (request: Request) => ({ request, context: testContext(host), params });

interface Loaded {
  client: { id: number; name: string };
  websites: Website[];
  totalPages: number;
  totalCount: number;
  page: number;
  pageSize: number;
  query: string;
  statusCounts: Record<string, number>;
  totalUrls: number;
  thisYear: number;
}

const load = async (cookie: string, search = ""): Promise<Loaded> =>
  loaderJson(websitesLoader, args(getRequest(`${PAGE}${search}`, cookie)));

const post = (cookie: string, fields: Record<string, string>, search = "") =>
  settle(() => websitesAction(args(formRequest(`${PAGE}${search}`, fields, cookie))));

/** The fields the form posts for one row (an existing row also posts what was loaded). */
function rowFields(
  index: number,
  row: { id?: number; url: string; site_map: string; tags?: string[]; skip?: string; allowed?: string },
  loaded?: Website,
) {
  const p = `websites[${index}]`;
  const fields: [string, string][] = [
    [`${p}.id`, row.id ? String(row.id) : ""],
    [`${p}.url`, row.url],
    [`${p}.site_map`, row.site_map],
    ...(row.tags ?? []).map((tag): [string, string] => [`${p}.tags`, tag]),
    [`${p}.skip_patterns`, row.skip ?? ""],
    [`${p}.allowed_patterns`, row.allowed ?? ""],
  ];
  if (loaded) {
    fields.push([
      `${p}.loaded`,
      JSON.stringify({
        url: loaded.url,
        site_map: loaded.site_map,
        tags: loaded.tags,
        skip_patterns: loaded.skip_patterns.join(", "),
        allowed_patterns: loaded.allowed_patterns.join(", "),
        enabled: loaded.enabled,
      }),
    ]);
  }
  return fields;
}

/** A form request with repeated names (the tag checkboxes). */
function formOf(url: string, entries: [string, string][], cookie: string) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(entries),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
  });
}
const postEntries = (cookie: string, entries: [string, string][], search = "") =>
  settle(() => websitesAction(args(formOf(`${PAGE}${search}`, entries, cookie))));

const apiWebsites = async (appId: number) =>
  (await call("GET", `/v1/apps/${appId}/websites?page_size=100`, { token: apiToken })).body.websites as Website[];
const apiUrls = async (appId: number, websiteId: number) =>
  (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=1000`, { token: apiToken })).body.data as {
    id: number;
    url: string;
    status: string;
  }[];

let fixtureWebsite: Website;

describe("Websites page: loader", () => {
  it("lists the client's websites on page 1 with 25 rows, and the URL counts by status", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const data = await load(cookie);
    expect(data).toMatchObject({ client: { name: expect.any(String) }, page: 1, pageSize: 25, query: "" });
    expect(data.websites.length).toBe(data.totalCount);
    expect(data.statusCounts).toEqual(expect.any(Object));
    expect(typeof data.totalUrls).toBe("number");
  });

  it("takes page, page_size (10 or 25) and query from the URL", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    expect(await load(cookie, "?page=2&page_size=10&query=nothing-like-this")).toMatchObject({
      page: 2,
      pageSize: 10,
      query: "nothing-like-this",
      websites: [],
    });
    expect((await load(cookie, "?page_size=500")).pageSize).toBe(25);
  });

  describe("on New Year's Eve in UTC, on a server already in the new year", () => {
    const zone = process.env.TZ;
    afterEach(() => {
      vi.useRealTimers();
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });

    // The skip-pattern suggestions run to this year: the server says which, in UTC, for the browser
    // to render the same list it rendered (a year of each side's own zone and start made two lists).
    it("gives the year the skip suggestions run to, as of the request in UTC", async () => {
      const cookie = await signInToConsole(host, "client.admin@example.com");
      process.env.TZ = "Pacific/Auckland";
      vi.useFakeTimers({ toFake: ["Date"], now: new Date("2025-12-31T23:30:00Z") });
      expect(new Date().getFullYear()).toBe(2026);
      expect((await load(cookie)).thisYear).toBe(2025);
      vi.setSystemTime(new Date("2026-01-01T00:30:00Z"));
      expect((await load(cookie)).thisYear).toBe(2026);
    });
  });

  it("answers at the legacy address without an agent segment", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const data = await loaderJson(websitesLoader, {
      request: getRequest("/northfield/ai-training/websites?page_size=10", cookie),
      context: testContext(host),
      params: { appName: "northfield" },
    });
    expect(data.pageSize).toBe(10);
  });

  it("answers 404 for a client the user cannot see", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await settle(() =>
      websitesLoader({
        request: getRequest("/nowhere/ai-training/websites", cookie),
        context: testContext(host),
        params: { appName: "nowhere" },
      }),
    );
    expect(response.status).toBe(404);
  });
});

describe("Websites page: saving rows", () => {
  it("adds a website; the API starts discovery and the sitemap is generated", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await load(cookie);
    const response = await postEntries(
      cookie,
      [
        ["intent", "save"],
        ...rowFields(0, {
          url: `${site.base}/`,
          site_map: "full_website",
          tags: ["Development", "Staged"],
          skip: "blog, 2019",
        }),
        ...before.websites.flatMap((w, i) =>
          rowFields(
            i + 1,
            {
              id: w.id,
              url: w.url,
              site_map: w.site_map,
              tags: w.tags,
              skip: w.skip_patterns.join(", "),
              allowed: w.allowed_patterns.join(", "),
            },
            w,
          ),
        ),
      ],
      "?page_size=10",
    );
    expect(response).toHaveRedirect(`${PAGE}?page_size=10`);
    await expect(response).toSendToast({ type: "success", description: "1 website saved" });

    const created = (await apiWebsites(before.client.id)).find((w) => w.url === `${site.base}/`);
    expect(created).toMatchObject({
      site_map: "full_website",
      tags: ["Development", "Staged"],
      skip_patterns: ["blog", "2019"],
      user: { name: expect.any(String) },
    });
    fixtureWebsite = await until("sitemap_generated", async () => {
      const w = (await apiWebsites(before.client.id)).find((x) => x.id === created!.id);
      return w?.status === "sitemap_generated" ? w : null;
    });
    // /blog/news is skipped by the pattern; robots keeps /private/ out.
    const paths = (await apiUrls(before.client.id, fixtureWebsite.id)).map((u) => u.url.replace(site.base, "")).sort();
    expect(paths).toContain("/programs/nursing");
    expect(paths).not.toContain("/blog/news");
    expect(paths).not.toContain("/private/secret");
  });

  it("answers 400 for a row without url or scan mode, keeping every posted row, and saves nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await load(cookie);
    const response = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(0, { url: "", site_map: "", tags: ["Production"], skip: "news" }),
      ...rowFields(1, { url: "https://typed-but-not-saved.example/", site_map: "few_urls" }),
    ]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toEqual({ url: ["This string is required"], site_map: ["This string is required"] });
    expect(body.errors[1]).toBeNull();
    expect(body.formError).toBe("Fix the highlighted rows before saving.");
    expect(body.rows).toEqual([
      {
        id: "",
        url: "",
        site_map: "",
        tags: ["Production"],
        skip_patterns: "news",
        allowed_patterns: "",
        loaded: null,
      },
      {
        id: "",
        url: "https://typed-but-not-saved.example/",
        site_map: "few_urls",
        tags: [],
        skip_patterns: "",
        allowed_patterns: "",
        loaded: null,
      },
    ]);
    expect((await apiWebsites(before.client.id)).some((w) => w.url === "https://typed-but-not-saved.example/")).toBe(
      false,
    );
  });

  it("puts the API's field errors (websites.N.url) next to the row they came from", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { websites } = await load(cookie);
    const first = websites[0];
    const response = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(
        0,
        {
          id: first.id,
          url: first.url,
          site_map: first.site_map,
          tags: first.tags,
          skip: first.skip_patterns.join(", "),
          allowed: first.allowed_patterns.join(", "),
        },
        first,
      ),
      ...rowFields(1, { url: "not an address", site_map: "few_urls" }),
    ]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toBeNull();
    expect(body.errors[1].url).toEqual(["Enter a full http(s) address"]);
    expect(body.rows[1].url).toBe("not an address");
  });

  it("refuses a website the client already has, beside its row's Urls cell, keeping what was typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await apiWebsites(fixtureWebsite.app_id);
    const w = fixtureWebsite;
    // The fixture site's address without its trailing slash, its scheme in capitals, below an unchanged row.
    const typed = `${site.base.replace("http://", "HTTP://")}#top`;
    const response = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(
        0,
        { id: w.id, url: w.url, site_map: w.site_map, tags: w.tags, skip: w.skip_patterns.join(", ") },
        w,
      ),
      ...rowFields(1, { url: typed, site_map: "few_urls", tags: ["Staged"], skip: "news" }),
    ]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toBeNull();
    expect(body.errors[1]).toEqual({ url: [`This client already has the website ${w.url}`] });
    expect(body.formError).toBe("Fix the highlighted rows before saving.");
    expect(body.rows[1]).toEqual({
      id: "",
      url: typed,
      site_map: "few_urls",
      tags: ["Staged"],
      skip_patterns: "news",
      allowed_patterns: "",
      loaded: null,
    });
    expect(await apiWebsites(w.app_id)).toHaveLength(before.length);
  });

  it("refuses two new rows of one address in one save, on the later row, saving neither", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await apiWebsites(fixtureWebsite.app_id);
    const w = fixtureWebsite;
    const response = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(0, { url: "https://twice.example/programs/", site_map: "few_urls" }),
      ...rowFields(
        1,
        { id: w.id, url: w.url, site_map: w.site_map, tags: w.tags, skip: w.skip_patterns.join(", ") },
        w,
      ),
      ...rowFields(2, { url: "https://TWICE.example/programs", site_map: "few_urls" }),
    ]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([null, null, { url: ["The same website is in another row of this save"] }]);
    expect(body.rows.map((row: { url: string }) => row.url)).toEqual([
      "https://twice.example/programs/",
      w.url,
      "https://TWICE.example/programs",
    ]);
    expect(await apiWebsites(w.app_id)).toHaveLength(before.length);
  });

  it("says so when nothing changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    const unchanged = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(
        0,
        { id: w.id, url: w.url, site_map: w.site_map, tags: w.tags, skip: w.skip_patterns.join(", ") },
        w,
      ),
    ]);
    expect(unchanged).toHaveRedirect();
    await expect(unchanged).toSendToast({ type: "info", description: "No changes to save" });
  });

  it("updates a changed row", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    const changed = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(
        0,
        { id: w.id, url: w.url, site_map: w.site_map, tags: ["Production"], skip: w.skip_patterns.join(", ") },
        w,
      ),
    ]);
    expect(changed).toHaveRedirect();
    await expect(changed).toSendToast({ type: "success", description: "1 website saved" });
    expect((await apiWebsites(w.app_id)).find((x) => x.id === w.id)?.tags).toEqual(["Production"]);
  });

  it("without JavaScript, '+ Add Website' adds one blank row at the top, and only one", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const once = await postEntries(cookie, [
      ["intent", "add-row"],
      ...rowFields(0, { url: "https://x.example/", site_map: "few_urls" }),
    ]);
    expect(once.status).toBe(200);
    const body = await once.json();
    expect(body.rows.map((r: { url: string }) => r.url)).toEqual(["", "https://x.example/"]);
    const twice = await postEntries(cookie, [
      ["intent", "add-row"],
      ...rowFields(0, { url: "", site_map: "" }),
      ...rowFields(1, { url: "https://x.example/", site_map: "few_urls" }),
    ]);
    expect((await twice.json()).rows).toHaveLength(2);
  });
});

describe("Websites page: paging, once websites are saved", () => {
  it("shows the last page for a page past the end, as its pager says", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const first = await load(cookie, "?page_size=10");
    expect(first.totalCount).toBeGreaterThan(0);
    const past = await load(cookie, `?page=${first.totalPages + 4}&page_size=10`);
    expect(past.page).toBe(first.totalPages);
    expect(past.websites.length).toBeGreaterThan(0);
    expect(past.websites.map((w) => w.id)).toEqual(
      (await load(cookie, `?page=${first.totalPages}&page_size=10`)).websites.map((w) => w.id),
    );
  });
});

describe("Websites page: row menu", () => {
  it("Index All sets the website's URLs to to_be_indexed and redirects back with a toast", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    const before = await apiUrls(w.app_id, w.id);
    expect(before.every((u) => u.status === "pending_review")).toBe(true);
    const response = await post(cookie, { intent: `index-all:${w.id}` }, "?query=127");
    expect(response).toHaveRedirect(`${PAGE}?query=127`);
    await expect(response).toSendToast({
      type: "success",
      description: `Index All: ${before.length} URLs set to to_be_indexed`,
    });
    // Every URL left pending_review: asked for indexing (and possibly already picked up by the worker).
    const after = await apiUrls(w.app_id, w.id);
    expect(
      after.every((u) => ["to_be_indexed", "sent_for_indexing", "indexed", "failed_to_index"].includes(u.status)),
    ).toBe(true);
    await until(
      "indexing to finish",
      async () => (await apiUrls(w.app_id, w.id)).every((u) => !/^(to_be_|sent_for_)/.test(u.status)),
      30_000,
    );
  });

  it("Delete URLs asks first without JavaScript, changing nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    const asked = await postEntries(cookie, [
      ["intent", `delete-urls:${w.id}`],
      ...rowFields(0, { id: w.id, url: w.url, site_map: w.site_map, tags: w.tags }, w),
    ]);
    expect(asked.status).toBe(200);
    expect((await asked.json()).confirm).toEqual({ websiteId: w.id, url: w.url });
    expect((await apiUrls(w.app_id, w.id)).some((u) => u.status === "to_be_deleted")).toBe(false);
  });

  it("Delete URLs, confirmed, sets the website's URLs to to_be_deleted", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    const confirmed = await post(cookie, { intent: `delete-urls-confirmed:${w.id}` });
    expect(confirmed).toHaveRedirect();
    await expect(confirmed).toSendToast({
      type: "success",
      description: expect.stringMatching(/^Delete URLs: \d+ URLs set to to_be_deleted$/),
    });
    const after = await apiUrls(w.app_id, w.id);
    expect(after.every((u) => ["to_be_deleted", "sent_for_deletion", "deleted"].includes(u.status))).toBe(true);
  });

  it("Delete URLs says which URLs it left as they are because they were being processed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const w = fixtureWebsite;
    await until(
      "the deletion before to finish",
      async () => (await apiUrls(w.app_id, w.id)).every((u) => !/^(to_be_|sent_for_)/.test(u.status)),
      30_000,
    );
    const [first] = await apiUrls(w.app_id, w.id);
    const status = async (value: string) =>
      host.deps.db.execute(sql`update urls set status = ${value} where id = ${first.id}`);
    await status("sent_for_indexing");
    try {
      const confirmed = await post(cookie, { intent: `delete-urls-confirmed:${w.id}` });
      await expect(confirmed).toSendToast({
        type: "error",
        description:
          "Delete URLs: 0 URLs set to to_be_deleted. 1 URL being processed now was left as it is: ask again once it has finished.",
      });
    } finally {
      await status("deleted");
    }
  });

  it("Refresh Sitemap starts a sitemap refresh", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await post(cookie, { intent: `refresh-sitemap:${fixtureWebsite.id}` });
    expect(response).toHaveRedirect();
    await expect(response).toSendToast({ type: "success", description: "Sitemap refresh started" });
    // The row the page comes back to says so, then what the refresh found.
    const row = async () => (await load(cookie)).websites.find((w) => w.id === fixtureWebsite.id)!;
    expect((await row()).last_sitemap_refresh?.asked_at).toBeTruthy();
    const read = await until("the sitemaps to be read", async () => {
      const record = (await row()).last_sitemap_refresh;
      return record?.finished_at ? record : null;
    });
    expect(read).toMatchObject({ error: null, new: 0, removed: 0, changed: 0 });
  });

  it("Refresh Sitemap of another client's website, posted from this client's page, refreshes nothing", async () => {
    // A System Admin may configure both clients: the page's client, not the caller's reach, scopes the id.
    const staff = (await signInAs(host, "admin@example.com")).user_token;
    const apps = (await call("GET", "/v1/apps?status=active", { token: staff })).body.apps as {
      id: number;
      url_code: string;
    }[];
    const harbor = apps.find((a) => a.url_code !== "northfield")!.id;
    const saved = await call("POST", `/v1/apps/${harbor}/websites/create_and_update`, {
      token: staff,
      body: {
        websites: [
          {
            app_id: harbor,
            url: "https://shop.example.com",
            site_map: "few_urls",
            enabled: true,
            tags: [],
            skip_patterns: [],
            allowed_patterns: [],
          },
        ],
      },
    });
    const elsewhere = saved.body.websites[0].id as number;
    const cookie = await signInToConsole(host, "admin@example.com");
    const response = await post(cookie, { intent: `refresh-sitemap:${elsewhere}` });
    await expect(response).toSendToast({
      type: "error",
      description: "Failed to refresh the sitemap: Website not found",
    });
    const after = (await call("GET", `/v1/apps/${harbor}/websites?page_size=100`, { token: staff })).body
      .websites as Website[];
    expect(after.find((w) => w.id === elsewhere)!.last_sitemap_refresh).toBeNull();
  });

  it("an unknown website answers with an error toast, not a crash", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await post(cookie, { intent: "skip-all:999999" });
    expect(response).toHaveRedirect();
    await expect(response).toSendToast({
      type: "error",
      description: "Failed to update URLs to to_be_skipped",
    });
  });

  it("an unknown intent answers 400", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    expect((await post(cookie, { intent: "drop-everything" })).status).toBe(400);
  });
});

describe("Websites page: read-only for a Client", () => {
  it("client_user may load the page but the action answers 403", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const data = await load(cookie);
    expect(data.websites.length).toBeGreaterThan(0);
    expect((await post(cookie, { intent: `index-all:${fixtureWebsite.id}` })).status).toBe(403);
    const save = await postEntries(cookie, [
      ["intent", "save"],
      ...rowFields(0, { url: "https://sneaky.example/", site_map: "few_urls" }),
    ]);
    expect(save.status).toBe(403);
    expect((await apiWebsites(data.client.id)).some((w) => w.url === "https://sneaky.example/")).toBe(false);
  });
});
