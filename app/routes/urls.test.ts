import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import type { UrlRow, UrlsList, Website } from "@contract";
import { parseCsv } from "~/lib/csv";
import { EXPORT_LEFT_OUT_HEADER } from "~/lib/urls";
import { loader as chunksLoader } from "./$appName.agent.$agentName.knowledge-store.websites.$websiteId.chunks";
import { loader as exportLoader } from "./$appName.agent.$agentName.knowledge-store.websites.$websiteId.export";
import {
  action as drawerAction,
  loader as drawerLoader,
} from "./$appName.agent.$agentName.knowledge-store.websites.$websiteId";
import { loader as unifiedExportLoader } from "./$appName.agent.$agentName.knowledge-store.websites.urls.export";
import {
  action as unifiedAction,
  loader as unifiedLoader,
} from "./$appName.agent.$agentName.knowledge-store.websites.urls";
import { until } from "../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;
let admin: string;
let viewer: string;

const args = (request: Request, params: Record<string, string> = {}) => ({
  request,
  context: testContext(host),
  params,
});
const base = () => `/northfield/agent/admissions/knowledge-store/websites/${websiteId}`;
const params = () => ({ appName: "northfield", agentName: "admissions", websiteId: String(websiteId) });
const unifiedParams = { appName: "northfield", agentName: "admissions" };
/**
 * The console's context with the API's URL lists counted otherwise: `total` over the rows it sends
 * (a function of them) and whether the count is capped, as a view past 10,000 URLs or a long search answers.
 */
const countedAs = (total: (rows: number) => number, capped = false) => ({
  ...testContext(host),
  apiFetch: async (request: Request) => {
    const answer = await testContext(host).apiFetch(request);
    if (!new URL(request.url).pathname.endsWith("/urls")) return answer;
    const list = (await answer.json()) as UrlsList;
    const counted = total(list.data.length);
    return Response.json({ ...list, total: counted, total_count: counted, total_is_capped: capped });
  },
});

const apiUrls = async (query = "page_size=1000") =>
  (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?${query}`, { token })).body as UrlsList;
const rowFor = async (path: string) => (await apiUrls()).data.find((row) => row.url === `${site.base}${path}`)!;

interface DrawerData {
  website: Website;
  view: { statuses: string[]; reviews: string[]; search: string; page: number; pageSize: number };
  list: UrlsList;
}
const openDrawer = async (search = "", cookie = admin): Promise<DrawerData> =>
  loaderJson(drawerLoader, args(getRequest(`${base()}${search}`, cookie), params()));

beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 200 });
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  const apps = (await call("GET", "/v1/apps?status=active", { token })).body.apps as { id: number; url_code: string }[];
  appId = apps.find((app) => app.url_code === "northfield")!.id;
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url: `${site.base}/`, site_map: "full_website", skip_patterns: ["blog"] }] },
  });
  expect(created.status).toBe(200);
  websiteId = created.body.websites[0].id;
  await until("the website's URLs", async () => (await apiUrls()).data.length >= 5);
  admin = await signInToConsole(host, "client.admin@example.com");
  viewer = await signInToConsole(host, "client.user@example.com");
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe("view-links drawer loader", () => {
  it("shows the website and a first page sorted by url ascending", async () => {
    const { website, list, view } = await openDrawer();
    expect(website.url).toBe(`${site.base}/`);
    expect(view).toMatchObject({ page: 0, pageSize: 100, statuses: [], reviews: [], search: "" });
    const urls = list.data.map((row) => row.url);
    expect(urls).toEqual([...urls].sort());
    expect(list.default_refresh_day).toBe(30);
  });

  it("searches the URLs by ?search", async () => {
    const searched = await openDrawer("?search=nursing");
    expect(searched.list.data.map((row) => row.url)).toEqual([`${site.base}/programs/nursing`]);
    expect(searched.list.total).toBe(1);
  });

  it("filters by status and review status, comma-separated or repeated, dropping unknown values", async () => {
    expect((await openDrawer("?status=indexed")).list.data).toEqual([]);
    const pending = await openDrawer("?status=pending_review&status=indexed&review=new,bogus");
    expect(pending.view.statuses).toEqual(["pending_review", "indexed"]);
    expect(pending.view.reviews).toEqual(["new"]);
  });

  it("pages and sorts as the address says", async () => {
    const paged = await openDrawer("?page_size=1&page=1&order_by=url&order=desc");
    expect(paged.list.data).toHaveLength(1);
    const all = (await apiUrls()).data
      .map((row) => row.url)
      .sort()
      .reverse();
    expect(paged.list.data[0].url).toBe(all[1]);
  });

  it("shows the last page for a page past the end, as its pager says", async () => {
    const total = (await apiUrls()).total_count;
    expect(total).toBeGreaterThan(2);
    const past = await openDrawer("?page_size=1&page=999&order_by=url&order=asc");
    expect(past.view.page).toBe(total - 1);
    const last = (await apiUrls()).data.map((row) => row.url).sort();
    expect(past.list.data.map((row) => row.url)).toEqual([last.at(-1)]);
    // A view with no rows at all stays where it was asked for.
    const none = await openDrawer("?search=nothing-like-this&page=3");
    expect(none.view.page).toBe(3);
    expect(none.list.data).toEqual([]);
  });

  it("lists the same view behind the chunks drawer: its `url` names the page opened, not a filter", async () => {
    const view = "?page_size=1&page=2&order_by=url&order=asc";
    const shown = await openDrawer(view);
    expect(shown.list.data).toHaveLength(1);
    // The chunks of another page than the one listed, as a link from page 2 may open after polling.
    const first = (await apiUrls()).data.map((row) => row.url).sort()[0];
    const behind = await openDrawer(`/chunks${view}&${new URLSearchParams({ url: first })}`);
    expect(behind.view.page).toBe(2);
    expect(behind.list.data.map((row) => row.url)).toEqual(shown.list.data.map((row) => row.url));
    expect(behind.list.total).toBe(shown.list.total);
  });

  it("says beside Export CSV when the view holds more URLs than one file, which a plain download cannot tell", async () => {
    expect((await loaderJson(drawerLoader, args(getRequest(base(), admin), params()))).exportNote).toBeNull();
    const many = await loaderJson(drawerLoader, {
      ...args(getRequest(`${base()}?status=pending_review`, admin), params()),
      context: countedAs(() => 12_345),
    });
    expect(many.exportNote).toBe(
      "Export CSV holds the first 10,000 of these 12,345 URLs; narrow the view to export the others.",
    );
    const unified = await loaderJson(unifiedLoader, {
      ...args(getRequest("/x?status=pending_review", admin), unifiedParams),
      context: countedAs(() => 10_001),
    });
    expect(unified.exportNote).toMatch(/^Export CSV holds the first 10,000 of these 10,001 URLs/);
    // A capped count (a search past 2,000 matches) does not tell whether a file holds every match: nothing said.
    const capped = await loaderJson(unifiedLoader, {
      ...args(getRequest("/x?search=a", admin), unifiedParams),
      context: countedAs(() => 2_001, true),
    });
    expect(capped.exportNote).toBeNull();
  });

  it("answers 404 for a website of nobody", async () => {
    const response = await settle(() =>
      drawerLoader(args(getRequest(`${base()}`, admin), { ...params(), websiteId: "999999" })),
    );
    expect(response.status).toBe(404);
  });
});

describe("view-links drawer actions", () => {
  it("adds links (trimmed, blank lines dropped) and says so", async () => {
    const response = await settle(() =>
      drawerAction(
        args(
          formRequest(
            `${base()}?status=pending_review`,
            {
              intent: "add-links",
              links: `  ${site.base}/added-one  \n\n   \n${site.base}/added-two\n`,
            },
            admin,
          ),
          params(),
        ),
      ),
    );
    expect(response).toHaveRedirect(`${base()}?status=pending_review`);
    await expect(response).toSendToast({ type: "success", description: "2 links added" });
    expect(await rowFor("/added-one")).toMatchObject({ status: "pending_review" });
    expect(await rowFor("/added-two")).toBeTruthy();
  });

  it("does nothing when no line is left, and shows the API's refusal beside the box", async () => {
    const before = (await apiUrls()).data.length;
    const blank = await settle(() =>
      drawerAction(args(formRequest(base(), { intent: "add-links", links: " \n  \n" }, admin), params())),
    );
    expect(blank).toHaveRedirect();
    expect((await apiUrls()).data.length).toBe(before);

    const refused = await settle(() =>
      drawerAction(args(formRequest(base(), { intent: "add-links", links: "not a url" }, admin), params())),
    );
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body).toMatchObject({ intent: "add-links", text: "not a url" });
    expect(body.error).toMatch(/Enter full http\(s\) addresses/);
  });

  it("names a refused link by its line in the box, blank lines counted, without a generic prefix", async () => {
    const before = (await apiUrls()).data.length;
    const text = `${site.base}/line-one\n\n${site.base}/line-three\n   \nnot a url\n${site.base}/line-six`;
    const refused = await settle(() =>
      drawerAction(args(formRequest(base(), { intent: "add-links", links: text }, admin), params())),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ intent: "add-links", error: "Line 5: Enter full http(s) addresses", text });
    expect((await apiUrls()).data.length).toBe(before);

    const twice = await settle(() =>
      drawerAction(
        args(formRequest(base(), { intent: "add-links", links: `\nftp://a.example/\n\nnope` }, admin), params()),
      ),
    );
    expect((await twice.json()).error).toBe("Lines 2, 4: Enter full http(s) addresses");
  });

  it("refuses a link with a user name and password beside the box, keeping what was typed", async () => {
    const before = (await apiUrls()).data.length;
    const withPassword = site.base.replace("://", "://editor:s3cret@");
    const text = `${site.base}/kept-out\n${withPassword}/private`;
    const refused = await settle(() =>
      drawerAction(args(formRequest(base(), { intent: "add-links", links: text }, admin), params())),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      intent: "add-links",
      error: "Line 2: Leave the user name and password out of the address",
      text,
    });
    expect((await apiUrls()).data.length).toBe(before);
  });

  it("adds addresses of one page once, and says how many links the website already had", async () => {
    const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token,
      body: { websites: [{ app_id: appId, url: "https://www.example.com/", site_map: "few_urls" }] },
    });
    const otherId: number = created.body.websites[0].id;
    const other = `/northfield/agent/admissions/knowledge-store/websites/${otherId}`;
    const otherParams = { ...params(), websiteId: String(otherId) };
    const otherUrls = async () =>
      ((await call("GET", `/v1/apps/${appId}/websites/${otherId}/urls?page_size=100`, { token })).body as UrlsList).data
        .map((row) => row.url)
        .filter((url) => url !== "https://www.example.com/")
        .sort();
    const add = (links: string) =>
      settle(() => drawerAction(args(formRequest(other, { intent: "add-links", links }, admin), otherParams)));

    const first = await add("https://www.example.com/a\nhttps://WWW.EXAMPLE.COM/a\nhttps://www.example.com/a#frag");
    expect(first).toHaveRedirect(other);
    await expect(first).toSendToast({ type: "success", description: "1 link added" });
    expect(await otherUrls()).toEqual(["https://www.example.com/a"]);

    const some = await add("https://www.example.com/a\nhttps://www.example.com/b");
    await expect(some).toSendToast({ type: "success", description: "1 link added, 1 already in this website" });
    const none = await add("https://WWW.example.com/a#top\nhttps://www.example.com/b");
    await expect(none).toSendToast({ type: "info", description: "No links added: 2 already in this website" });
    expect(await otherUrls()).toEqual(["https://www.example.com/a", "https://www.example.com/b"]);
  });

  it("sets a URL's refresh days", async () => {
    const row = await rowFor("/about");
    const saved = await settle(() =>
      drawerAction(
        args(
          formRequest(base(), { intent: "refresh-days", url_id: String(row.id), refresh_days: "45" }, admin),
          params(),
        ),
      ),
    );
    expect(saved).toHaveRedirect();
    await expect(saved).toSendToast({ type: "success", description: "Refresh days set to 45" });
    expect((await rowFor("/about")).refresh_days).toBe(45);
  });

  it("refuses refresh days outside 1–365 with the spec's toast, keeping the saved value", async () => {
    const row = await rowFor("/about");
    for (const bad of ["0", "366", "2.5", "x"]) {
      const refused = await settle(() =>
        drawerAction(
          args(
            formRequest(base(), { intent: "refresh-days", url_id: String(row.id), refresh_days: bad }, admin),
            params(),
          ),
        ),
      );
      expect(refused).toHaveRedirect();
      await expect(refused).toSendToast({
        type: "error",
        description: "Refresh days must be between 1 and 365.",
      });
    }
    expect((await rowFor("/about")).refresh_days).toBe(row.refresh_days);
  });

  it("answers a refusal of refresh days sent by script as data, not a redirect", async () => {
    const row = await rowFor("/about");
    const byScript = await settle(() =>
      drawerAction(
        args(
          formRequest(
            base(),
            { intent: "refresh-days", url_id: String(row.id), refresh_days: "400", _fetcher: "1" },
            admin,
          ),
          params(),
        ),
      ),
    );
    expect(byScript.status).toBe(400);
    expect(await byScript.json()).toEqual({
      intent: "refresh-days",
      ok: false,
      error: "Refresh days must be between 1 and 365.",
    });
  });

  it("indexes the chosen URLs with a bulk action, then the chunks drawer shows their chunks", async () => {
    const home = await rowFor("/");
    const nursing = await rowFor("/programs/nursing");
    const asked = await settle(() =>
      drawerAction(
        args(
          new Request(`http://localhost${base()}?search=n`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", cookie: admin },
            body: new URLSearchParams([
              ["intent", "bulk"],
              ["bulk", "index"],
              ["url_ids", String(home.id)],
              ["url_ids", String(nursing.id)],
            ]),
          }),
          params(),
        ),
      ),
    );
    expect(asked).toHaveRedirect(`${base()}?search=n`);
    await expect(asked).toSendToast({ type: "success", description: "2 of 2 URLs set to to_be_indexed" });
    await until(
      "both URLs indexed",
      async () => (await rowFor("/")).status === "indexed" && (await rowFor("/programs/nursing")).status === "indexed",
    );
    expect((await rowFor("/about")).status).toBe("pending_review");

    const data = await loaderJson(
      chunksLoader,
      args(
        getRequest(
          `${base()}/chunks?url=${encodeURIComponent(`${site.base}/programs/nursing`)}&font=30&theme=light`,
          admin,
        ),
        params(),
      ),
    );
    expect(data).toMatchObject({ url: `${site.base}/programs/nursing`, error: null });
    expect(data.chunks!.map((c: { text: string }) => c.text).join(" ")).toContain("licensure");

    const none = await loaderJson(
      chunksLoader,
      args(getRequest(`${base()}/chunks?url=${encodeURIComponent(`${site.base}/about`)}`, admin), params()),
    );
    expect(none).toMatchObject({ chunks: [], error: null });
    const unknown = await loaderJson(
      chunksLoader,
      args(getRequest(`${base()}/chunks?url=${encodeURIComponent("https://nowhere.example/")}`, admin), params()),
    );
    expect(unknown).toMatchObject({ chunks: null, error: "URL not found" });
  });

  it("answers 400 to an unknown intent, and says in a toast that a bulk action must be one offered", async () => {
    expect(
      (await settle(() => drawerAction(args(formRequest(base(), { intent: "explode" }, admin), params())))).status,
    ).toBe(400);
    const melt = await settle(() =>
      drawerAction(
        args(formRequest(`${base()}?page=0`, { intent: "bulk", bulk: "melt", url_ids: "1" }, admin), params()),
      ),
    );
    expect(melt).toHaveRedirect(`${base()}?page=0`);
    await expect(melt).toSendToast({ type: "error", description: "Choose one of the bulk actions offered." });
  });

  it("is read-only for a client_user: viewing works, every action answers 403", async () => {
    expect((await openDrawer("", viewer)).list.data.length).toBeGreaterThan(0);
    const row = await rowFor("/about");
    const refused: Record<string, string>[] = [
      { intent: "bulk", bulk: "delete", url_ids: String(row.id) },
      { intent: "add-links", links: `${site.base}/by-viewer` },
      { intent: "refresh-days", url_id: String(row.id), refresh_days: "10" },
    ];
    for (const fields of refused) {
      expect((await settle(() => drawerAction(args(formRequest(base(), fields, viewer), params())))).status).toBe(403);
    }
    expect(
      (
        await settle(() =>
          unifiedAction(
            args(formRequest("/x", { intent: "bulk", bulk: "skip", url_ids: String(row.id) }, viewer), unifiedParams),
          ),
        )
      ).status,
    ).toBe(403);
    expect((await rowFor("/about")).status).toBe("pending_review");
  });
});

describe("CSV export", () => {
  it("answers the filtered URLs as a CSV file named after the site, dates in the asked time zone", async () => {
    const response = await settle(() =>
      exportLoader(args(getRequest(`${base()}/export?status=indexed&tz=America/New_York`, admin), params())),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    const host127 = new URL(site.base).host.replace(":", "_");
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="urls_export_${host127}_\\d{8}T\\d{6}Z\\.csv"$`),
    );
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([
      "url",
      "title",
      "status",
      "sitemap_refresh_review_status",
      "metadata",
      "indexed_at",
      "created_at",
      "updated_at",
    ]);
    expect(rows.map((row) => row[0]).sort()).toEqual([`${site.base}/`, `${site.base}/programs/nursing`]);
    const nursing = rows.find((row) => row[0].endsWith("/programs/nursing"))!;
    expect(nursing[1]).toBe("Nursing BSN | Northfield");
    expect(nursing[2]).toBe("indexed");
    expect(JSON.parse(nursing[4])).toBeTypeOf("object");
    expect(nursing[5]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} E[DS]T$/);
  });

  it("defaults to UTC, and the unified export adds website_url and names the file 'all'", async () => {
    const plain = parseCsv(
      await (
        await settle(() => exportLoader(args(getRequest(`${base()}/export?search=nursing`, admin), params())))
      ).text(),
    );
    expect(plain).toHaveLength(2);
    expect(plain[1][6]).toMatch(/ UTC$/);

    const response = await settle(() =>
      unifiedExportLoader(args(getRequest("/x/export?status=pending_review", viewer), unifiedParams)),
    );
    expect(response.headers.get("content-disposition")).toMatch(/filename="urls_export_all_\d{8}T\d{6}Z\.csv"/);
    const [header, ...rows] = parseCsv(await response.text());
    expect(header.at(-1)).toBe("website_url");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row[2] === "pending_review")).toBe(true);
    expect(rows.find((row) => row[0] === `${site.base}/about`)?.at(-1)).toBe(`${site.base}/`);
    // All of the view fits in the file: nothing left out to tell of.
    expect(response.headers.get(EXPORT_LEFT_OUT_HEADER)).toBeNull();
  });

  it("tells the browser how many URLs of the view the file left out past its 10,000 rows", async () => {
    const response = await settle(() =>
      unifiedExportLoader({
        ...args(getRequest("/x/export?status=pending_review", viewer), unifiedParams),
        context: countedAs((rows) => rows + 2_000),
      }),
    );
    expect(response.headers.get(EXPORT_LEFT_OUT_HEADER)).toBe("2000");

    // A capped count of a search says nothing of the rest: a file short of 10,000 rows holds them all.
    const whole = await settle(() =>
      unifiedExportLoader({
        ...args(getRequest("/x/export?status=pending_review", viewer), unifiedParams),
        context: countedAs(() => 2_001, true),
      }),
    );
    expect(whole.headers.get(EXPORT_LEFT_OUT_HEADER)).toBeNull();
  });
});

describe("unified URL drawer", () => {
  it("lists the client's URLs of one status with their website, paged 25/50/100/200", async () => {
    const response = await settle(() =>
      unifiedLoader(args(getRequest("/x?status=indexed&page_size=25", admin), unifiedParams)),
    );
    const { list, view } = (await response.json()) as {
      list: UrlsList;
      view: { pageSize: number; statuses: string[] };
    };
    expect(view).toMatchObject({ pageSize: 25, statuses: ["indexed"] });
    expect(list.data.every((row: UrlRow) => row.status === "indexed")).toBe(true);
    expect(list.data.map((row) => row.website_url)).toContain(`${site.base}/`);
    const odd = await loaderJson(unifiedLoader, args(getRequest("/x?page_size=1", admin), unifiedParams));
    expect(odd.view.pageSize).toBe(100);
    // A page past the end shows the last one.
    const past = await loaderJson(unifiedLoader, args(getRequest("/x?page_size=25&page=40", admin), unifiedParams));
    expect(past.view.page).toBe(past.list.total_pages - 1);
    expect(past.list.data.length).toBeGreaterThan(0);
  });

  it("shows exactly the address ?url names, where a search for a home page holds every page of the site", async () => {
    const home = `${site.base}/`;
    const searched = await loaderJson(
      unifiedLoader,
      args(getRequest(`/x?search=${encodeURIComponent(home)}`, admin), unifiedParams),
    );
    expect(searched.list.data.length).toBeGreaterThan(1);
    const exact = await loaderJson(
      unifiedLoader,
      args(getRequest(`/x?url=${encodeURIComponent(home)}`, admin), unifiedParams),
    );
    expect(exact.list.data.map((row: UrlRow) => row.url)).toEqual([home]);
    expect(exact.view.url).toBe(home);
    // Bounded and cleaned as the search is: an address no page has shows none, never an error.
    const odd = await settle(() =>
      unifiedLoader(
        args(getRequest(`/x?url=${encodeURIComponent(`${home}\u0000${"a".repeat(5000)}`)}`, admin), unifiedParams),
      ),
    );
    expect(odd.status).toBe(200);
    expect(((await odd.json()) as { list: UrlsList }).list.data).toEqual([]);
  });

  it("skips chosen URLs of any website, and says 'Failed to update URLs to {status}' on a refusal", async () => {
    const about = await rowFor("/about");
    const skipped = await settle(() =>
      unifiedAction(
        args(
          formRequest("/x?status=pending_review", { intent: "bulk", bulk: "skip", url_ids: String(about.id) }, admin),
          unifiedParams,
        ),
      ),
    );
    expect(skipped).toHaveRedirect("/x?status=pending_review");
    await until("about skipped", async () => (await rowFor("/about")).status === "skipped");

    // Delete asks first: the question names how many, and nothing changes until it is confirmed.
    const asked = await settle(() =>
      unifiedAction(
        args(formRequest("/x", { intent: "bulk", bulk: "delete", url_ids: String(about.id) }, admin), unifiedParams),
      ),
    );
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ intent: "confirm-bulk-delete", urlIds: [about.id] });
    expect((await rowFor("/about")).status).toBe("skipped");

    // Unknown ids are accepted (nothing changes)…
    const unknown = await settle(() =>
      unifiedAction(
        args(
          formRequest("/x", { intent: "bulk", bulk: "delete", confirmed: "yes", url_ids: "99999999" }, admin),
          unifiedParams,
        ),
      ),
    );
    await expect(unknown).toSendToast({
      type: "error",
      description:
        "0 of 1 URLs set to to_be_deleted. The rest were left as they are: a URL being processed (sent for indexing, skipping or deletion) changes once it has finished.",
    });
    // …an id beyond the API's integer ids names no row: nothing was chosen, and the drawer says so.
    const refused = await settle(() =>
      unifiedAction(
        args(formRequest("/x", { intent: "bulk", bulk: "delete", url_ids: "99999999999" }, admin), unifiedParams),
      ),
    );
    expect(refused).toHaveRedirect();
    await expect(refused).toSendToast({ type: "error", description: "Select at least one URL first." });
    // …and a refusal of the API says 'Failed to update URLs to {status}'.
    const context = testContext(host);
    const refusing = {
      ...context,
      apiFetch: async (request: Request) =>
        new URL(request.url).pathname.endsWith("/urls/update_status")
          ? Response.json({ message: "Too many URLs at once" }, { status: 400 })
          : context.apiFetch(request),
    };
    const failed = await settle(() =>
      unifiedAction({
        request: formRequest(
          "/x",
          { intent: "bulk", bulk: "delete", confirmed: "yes", url_ids: String(about.id) },
          admin,
        ),
        context: refusing,
        params: unifiedParams,
      }),
    );
    expect(failed).toHaveRedirect();
    await expect(failed).toSendToast({
      type: "error",
      description: "Failed to update URLs to to_be_deleted",
    });
  });
});
