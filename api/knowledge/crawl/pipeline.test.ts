import { gzipSync } from "node:zlib";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";
import { makePdf } from "../../../tests/support/pdf";
import { sitemapRefreshAsked } from "./refresh-sitemap";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;

beforeAll(async () => {
  // /huge streams 6 MB with no length given, read until past the 5 MB cap: within the fetch's
  // deadline even on a busy machine (1 s was not always enough), which /slow overruns.
  site = await startFixtureSite({ slowMs: 6000 });
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 3000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const website = async () =>
  (await call("GET", `/v1/apps/${appId}/websites`, { token })).body.websites.find(
    (w: { id: number }) => w.id === websiteId,
  );
const urlRows = async (query = "page_size=1000") =>
  (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?${query}`, { token })).body;
const byPath = async () =>
  Object.fromEntries((await urlRows()).data.map((u: { url: string }) => [u.url.replace(site.base, ""), u]));
const settled = () =>
  until(
    "the queue to drain",
    async () => {
      const rows = (await urlRows()).data as { status: string }[];
      return rows.every((r) => !/^(to_be_|sent_for_)/.test(r.status));
    },
    30_000,
  );

/** Adds a few_urls website of the fixture site at this path and waits for its one URL to be listed. */
async function fewUrlsWebsite(path: string): Promise<number> {
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url: `${site.base}${path}`, site_map: "few_urls" }] },
  });
  const id: number = created.body.websites[0].id;
  await until("few_urls discovery", async () => {
    const list = await call("GET", `/v1/apps/${appId}/websites/${id}/urls`, { token });
    return list.body.total === 1 && list.body;
  });
  return id;
}

describe("the knowledge pipeline against a local website", () => {
  it("discovers URLs through robots.txt, a sitemap index and a gzipped sitemap, applying robots and skip patterns", async () => {
    const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token,
      body: {
        websites: [
          {
            app_id: appId,
            url: `${site.base}/`,
            site_map: "full_website",
            skip_patterns: ["blog"],
            tags: ["Development"],
          },
        ],
      },
    });
    expect(created.status).toBe(200);
    websiteId = created.body.websites[0].id;
    expect(created.body.websites[0]).toMatchObject({
      status: "pending_sitemap_generation",
      user: { name: "Casey Admin" },
    });
    await until("sitemap_generated", async () => (await website())?.status === "sitemap_generated");
    const paths = Object.keys(await byPath()).sort();
    expect(paths).toEqual([
      "/",
      "/about",
      "/admissions",
      "/broken",
      "/data.json",
      "/guide.pdf",
      "/huge",
      "/missing",
      "/programs/nursing",
      "/redirect-me",
      "/slow",
    ]);
    expect((await website()).urls_count).toBe(11);
    expect(Object.values(await byPath()).every((u) => (u as { status: string }).status === "pending_review")).toBe(
      true,
    );
  });

  it("indexes the whole website: pages, redirects and PDFs indexed; errors recorded per URL; nothing left in flight", async () => {
    const asked = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed" },
    });
    expect(asked.body).toEqual({ message: "Ok", updated: 11, in_progress: 0 });
    await settled();
    const rows = await byPath();
    const summary = Object.fromEntries(
      Object.entries(rows).map(([path, row]) => [path, (row as { status: string }).status]),
    );
    expect(summary).toEqual({
      "/": "indexed",
      "/about": "indexed",
      "/admissions": "indexed",
      "/programs/nursing": "indexed",
      "/redirect-me": "indexed",
      "/guide.pdf": "indexed",
      "/missing": "failed_to_index",
      "/broken": "failed_to_index",
      "/slow": "failed_to_index",
      "/huge": "failed_to_index",
      "/data.json": "failed_to_index",
    });
    expect(rows["/missing"].metadata.error_message).toBe("The page answered HTTP 404");
    expect(rows["/broken"].metadata.error_message).toBe("The page answered HTTP 500");
    expect(rows["/slow"].metadata.error_message).toMatch(/did not answer within 3 s/);
    expect(rows["/huge"].metadata.error_message).toMatch(/larger than 5 MB/);
    expect(rows["/data.json"].metadata.error_message).toBe(
      "Only HTML and PDF pages are indexed; this one is application/json",
    );
    expect(rows["/programs/nursing"].title).toBe("Nursing BSN | Northfield");
    expect(rows["/guide.pdf"].title).toBe("Applicant Guide");
    expect(rows["/"].indexed_at).toBeTruthy();
    // Every page counted in the website's record as its outcome was written, failures with the rest.
    expect((await website()).last_refresh).toMatchObject({ new: 6, failed: 5, checked: 0 });
  });

  it("stores chunks of the main text only, with heading paths", async () => {
    const nursing = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
      token,
      body: { appId, url: `${site.base}/programs/nursing` },
    });
    const text = nursing.body.chunks.map((c: { text: string }) => c.text).join(" ");
    expect(text).toContain("Applicants need a high-school diploma");
    for (const junk of ["Apply now", "cookies", "All rights reserved", "analytics"]) expect(text).not.toContain(junk);
    expect(nursing.body.chunks.map((c: { heading_path: string[] }) => c.heading_path)).toContainEqual([
      "Nursing (BSN)",
      "Tuition",
    ]);
    const pdf = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
      token,
      body: { url: `${site.base}/guide.pdf` },
    });
    expect(
      pdf.body.chunks.map((c: { heading_path: string[]; text: string }) => `${c.heading_path[0]}: ${c.text}`),
    ).toEqual([
      "Page 1: Northfield applicant guide Visit campus on Fridays.",
      "Page 2: Financial aid deadlines are in March.",
    ]);
    // Full-text search finds them.
    const found = await host.deps.db.execute(
      `select count(*)::int as n from chunks where tsv @@ plainto_tsquery('english', 'laboratory science')`,
    );
    expect((found as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });

  it("keeps unchanged pages' chunks, re-chunks on force_index and on changed content", async () => {
    const rows = await byPath();
    const chunkIds = async (id: number) =>
      (
        await host.deps.db.select({ id: chunks.id }).from(chunks).where(eq(chunks.urlId, id)).orderBy(asc(chunks.id))
      ).map((c) => c.id);
    const aboutId = rows["/about"].id;
    const before = await chunkIds(aboutId);
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: [aboutId] },
    });
    await settled();
    expect(await chunkIds(aboutId)).toEqual(before);
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: [aboutId], force_index: true },
    });
    await settled();
    const forced = await chunkIds(aboutId);
    expect(forced).not.toEqual(before);
    site.setPage("/about", "About | Northfield", "<h1>About us</h1><p>Founded in 1891. Now with a new library.</p>");
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: [aboutId] },
    });
    await settled();
    const [chunk] = await host.deps.db.select().from(chunks).where(eq(chunks.urlId, aboutId));
    expect(chunk.text).toContain("new library");
  });

  /** Asks for URLs of the website, by path, to be indexed, skipped or deleted (`settled` waits for it). */
  const request = async (status: string, paths: string[]) => {
    const rows = await byPath();
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status, url_ids: paths.map((path) => rows[path].id) },
    });
  };

  it("skips and deletes: chunks leave retrieval, the rows stay", async () => {
    const rows = await byPath();
    await request("to_be_skipped", ["/about"]);
    await request("to_be_deleted", ["/admissions"]);
    await settled();
    const after = await byPath();
    expect([after["/about"].status, after["/admissions"].status]).toEqual(["skipped", "deleted"]);
    expect(await host.deps.db.select().from(chunks).where(eq(chunks.urlId, rows["/about"].id))).toEqual([]);
    expect(await host.deps.db.select().from(chunks).where(eq(chunks.urlId, rows["/admissions"].id))).toEqual([]);
  });

  it("indexes a skipped or deleted page again with its passages, not as unchanged", async () => {
    const rows = await byPath();
    await request("to_be_indexed", ["/about", "/admissions"]);
    await settled();
    const after = await byPath();
    expect([after["/about"].status, after["/admissions"].status]).toEqual(["indexed", "indexed"]);
    for (const path of ["/about", "/admissions"]) {
      const passages = await host.deps.db.select().from(chunks).where(eq(chunks.urlId, rows[path].id));
      expect(passages.length).toBeGreaterThan(0);
    }
    // As the tests after this one find them.
    await request("to_be_skipped", ["/about"]);
    await request("to_be_deleted", ["/admissions"]);
    await settled();
  });

  it("filters, searches, sorts and counts URLs in the database", async () => {
    const failed = await urlRows("status=failed_to_index,skipped&order_by=url&order=desc&page_size=2&page=0");
    expect(failed.total).toBe(6);
    expect(failed.count).toBe(2);
    expect(failed.total_pages).toBe(3);
    expect(failed.data.map((u: { url: string }) => u.url.replace(site.base, ""))).toEqual(["/slow", "/missing"]);
    expect(failed.status_counts).toEqual({ indexed: 4, failed_to_index: 5, skipped: 1, deleted: 1 });
    expect(failed.default_refresh_day).toBe(30);
    const searched = await urlRows("search=NURS");
    expect(searched.data.map((u: { url: string }) => u.url.replace(site.base, ""))).toEqual(["/programs/nursing"]);
    const counts = await call("GET", `/v1/apps/${appId}/urls/status_counts`, { token });
    expect(counts.body.total_count).toBe(11);
    const unified = await call("GET", `/v1/apps/${appId}/urls?status=deleted`, { token });
    expect(unified.body.data[0]).toMatchObject({ website_url: `${site.base}/` });
    const bad = await call("GET", `/v1/apps/${appId}/urls?status=exploded&page_size=0`, { token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["page_size", "status.0"]);
  });

  it("computes the sitemap diff: new, removed, changed and unchanged, with the red dot until reviewed", async () => {
    site.setGzSitemap(["/admissions", "/new-page"]);
    site.setLastmod("/admissions", "2026-11-01");
    site.setPage("/new-page", "New | Northfield", "<h1>New page</h1><p>Fresh.</p>");
    expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    await until("the sitemap diff", async () => (await website()).sitemap_diff);
    const rows = await byPath();
    expect(rows["/new-page"].sitemap_refresh_review_status).toBe("new");
    expect(rows["/about"].sitemap_refresh_review_status).toBe("removed");
    expect(rows["/admissions"].sitemap_refresh_review_status).toBe("changed");
    expect(rows["/programs/nursing"].sitemap_refresh_review_status).toBe("unchanged");
    // The website's row says what the refresh marked, so an operator sees it ran.
    await until("the refresh's record", async () => Boolean((await website()).last_sitemap_refresh?.finished_at));
    const first = (await website()).last_sitemap_refresh;
    expect(first).toMatchObject({ new: 1, removed: 1, changed: 1, error: null });
    expect(first.unchanged).toBeGreaterThan(0);
    expect(Date.parse(first.finished_at)).toBeGreaterThanOrEqual(Date.parse(first.asked_at));
    const review = await urlRows("sitemap_refresh_review_status=new,removed,changed");
    expect(review.total).toBe(3);
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: review.data.map((u: { id: number }) => u.id) },
    });
    await settled();
    expect((await website()).sitemap_diff).toBe(false);
    expect((await byPath())["/new-page"]).toMatchObject({
      status: "indexed",
      sitemap_refresh_review_status: "reviewed",
    });

    // Read again with nothing new, after the website had failed: the review stands, the failure goes.
    await host.deps.db
      .update(websites)
      .set({ status: "failed_to_index", lastError: "No sitemap found (connection refused)" })
      .where(eq(websites.id, websiteId));
    expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    expect(Date.parse((await website()).last_sitemap_refresh.asked_at)).toBeGreaterThan(Date.parse(first.finished_at));
    await until("the refresh to be read", async () => (await website()).status === "sitemap_generated");
    await until("the refresh's record", async () => Boolean((await website()).last_sitemap_refresh?.finished_at));
    expect((await website()).last_sitemap_refresh).toMatchObject({ new: 0, removed: 0, changed: 0, error: null });
    expect((await website()).sitemap_diff).toBe(false);
    expect((await byPath())["/about"].sitemap_refresh_review_status).toBe("reviewed");
    const [row] = await host.deps.db.select().from(websites).where(eq(websites.id, websiteId));
    expect(row.lastError).toBeNull();
  });

  it("queues one Refresh Sitemap per website at a time: asking again while one waits queues nothing", async () => {
    const waiting = sitemapRefreshAsked();
    await host.deps.db.update(websites).set({ lastSitemapRefresh: waiting }).where(eq(websites.id, websiteId));
    for (let i = 0; i < 3; i++)
      expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    // Nothing was queued: the record is the one waiting, never finished by a job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await website()).last_sitemap_refresh).toEqual(waiting);

    // One asked for so long ago that its job must be lost is asked for again.
    const lost = { ...waiting, asked_at: new Date(Date.now() - 11 * 60_000).toISOString() };
    await host.deps.db.update(websites).set({ lastSitemapRefresh: lost }).where(eq(websites.id, websiteId));
    expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    await until("the refresh's record", async () => Boolean((await website()).last_sitemap_refresh?.finished_at));
  });

  it("resumes URLs a crashed worker left in flight, and re-indexes URLs past their refresh days", async () => {
    const rows = await byPath();
    await host.deps.db.update(urls).set({ status: "sent_for_indexing" }).where(eq(urls.id, rows["/"].id));
    await host.deps.jobs.send("pipeline-recover", { olderThanSeconds: 0 });
    await until("the abandoned URL to be indexed", async () => (await byPath())["/"].status === "indexed");

    const old = new Date(Date.now() - 40 * 86_400_000);
    await host.deps.db.update(urls).set({ indexedAt: old }).where(eq(urls.id, rows["/programs/nursing"].id));
    await host.deps.db
      .update(urls)
      .set({ indexedAt: old, refreshDays: 60 })
      .where(eq(urls.id, rows["/landing"]?.id ?? rows["/redirect-me"].id));
    // A page that failed after it was indexed (a 503, a timeout) still answers: it is tried again
    // an hour on. One that never was indexed is not.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await host.deps.db
      .update(urls)
      .set({ status: "failed_to_index", updatedAt: twoHoursAgo })
      .where(eq(urls.id, rows["/about"].id));
    await host.deps.db.update(urls).set({ updatedAt: twoHoursAgo }).where(eq(urls.id, rows["/missing"].id));
    await host.deps.jobs.send("urls-refresh-due", {});
    await until("the due URL to be re-indexed", async () => {
      const row = (await byPath())["/programs/nursing"];
      return row.status === "indexed" && new Date(row.indexed_at) > old;
    });
    await until(
      "the page that failed to be indexed again",
      async () => (await byPath())["/about"].status === "indexed",
    );
    expect((await byPath())["/missing"].status).toBe("failed_to_index");
    expect(new Date((await byPath())["/redirect-me"].indexed_at).getTime()).toBe(old.getTime());
  });

  it("takes only the given URLs for few_urls websites, and adds links and refresh days by hand", async () => {
    const id = await fewUrlsWebsite("/programs/nursing");
    const bulk = await call("POST", `/v1/apps/${appId}/websites/${id}/urls/bulk_create`, {
      token,
      body: { urls: [`${site.base}/about`, `${site.base}/about`, `${site.base}/admissions`] },
    });
    expect(bulk.body).toEqual({ message: "Ok", created: 2, existing: 0 });
    const list = await call("GET", `/v1/apps/${appId}/websites/${id}/urls`, { token });
    const urlId = list.body.data[0].id;
    const put = (days: unknown) =>
      call("PUT", `/v1/apps/${appId}/websites/${id}/urls/${urlId}`, { token, body: { url: { refresh_days: days } } });
    expect((await put(45)).body.refresh_days).toBe(45);
    for (const bad of [0, 366, 2.5, "x"])
      expect((await put(bad)).body.errors["url.refresh_days"]).toEqual(["Refresh days must be between 1 and 365."]);

    // A URL being processed is left as it is by a request, and the answer says how many were.
    await host.deps.db.update(urls).set({ status: "sent_for_indexing" }).where(eq(urls.id, urlId));
    const deleting = await call("POST", `/v1/apps/${appId}/websites/${id}/urls/update_status`, {
      token,
      body: { status: "to_be_deleted" },
    });
    expect(deleting.body).toEqual({ message: "Ok", updated: 2, in_progress: 1 });
    await host.deps.db.update(urls).set({ status: "deleted" }).where(eq(urls.id, urlId));
    await until("the two URLs to be deleted", async () => {
      const rows = (await call("GET", `/v1/apps/${appId}/websites/${id}/urls`, { token })).body.data;
      return rows.every((row: { status: string }) => row.status === "deleted");
    });
    // Deleting what is deleted already changes nothing, and says so.
    const again = await call("POST", `/v1/apps/${appId}/websites/${id}/urls/update_status`, {
      token,
      body: { status: "to_be_deleted" },
    });
    expect(again.body).toEqual({ message: "Ok", updated: 0, in_progress: 0 });
  });

  it("takes out the pages a changed skip pattern names, with their passages", async () => {
    const nursing = (await byPath())["/programs/nursing"];
    expect(nursing.status).toBe("indexed");
    const saved = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token,
      body: {
        websites: [
          {
            id: websiteId,
            app_id: appId,
            url: `${site.base}/`,
            site_map: "full_website",
            skip_patterns: ["blog", "/programs/"],
            tags: ["Development"],
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    await until(
      "the skipped page to be deleted",
      async () => (await byPath())["/programs/nursing"].status === "deleted",
    );
    expect(await host.deps.db.select().from(chunks).where(eq(chunks.urlId, nursing.id))).toEqual([]);
    expect((await byPath())["/about"].status).toBe("indexed");
  });

  it("reads pages as servers really send them, and keeps no page that redirects off the website", async () => {
    const sameServerOtherHost = site.base.replace("127.0.0.1", "localhost");
    site.setRedirect("/sign-in-first", `${sameServerOtherHost}/admissions`);
    site.setRaw("/download/guide", "application/octet-stream", makePdf([["Octet campus guide: tours on Mondays."]]));
    site.setRaw(
      "/stored-compressed",
      "text/html",
      gzipSync(
        "<html><head><title>Compressed | Northfield</title></head><body><main><p>Zipped pages are read as text.</p></main></body></html>",
      ),
      { "content-encoding": "gzip" },
    );
    const id = await fewUrlsWebsite("/sign-in-first");
    await call("POST", `/v1/apps/${appId}/websites/${id}/urls/bulk_create`, {
      token,
      body: { urls: [`${site.base}/download/guide`, `${site.base}/stored-compressed`] },
    });
    await call("POST", `/v1/apps/${appId}/websites/${id}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed" },
    });
    const outcome = async () => {
      const list = await call("GET", `/v1/apps/${appId}/websites/${id}/urls`, { token });
      const rows = list.body.data as {
        url: string;
        status: string;
        title: string | null;
        metadata: { error_message?: string };
      }[];
      return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row]));
    };
    await until("the three pages to be done", async () =>
      Object.values(await outcome()).every((row) => row.status === "indexed" || row.status === "failed_to_index"),
    );
    const rows = await outcome();
    expect(rows["/sign-in-first"]).toMatchObject({ status: "failed_to_index" });
    expect(rows["/sign-in-first"].metadata.error_message).toBe(
      `The page redirects to ${sameServerOtherHost}/admissions, outside this website`,
    );
    expect(rows["/download/guide"]).toMatchObject({ status: "indexed" });
    expect(rows["/stored-compressed"]).toMatchObject({ status: "indexed", title: "Compressed | Northfield" });
    const chunks = await call("POST", `/v1/apps/${appId}/websites/${id}/urls/fetch_cached_chunks`, {
      token,
      body: { appId, url: `${site.base}/stored-compressed` },
    });
    expect(chunks.body.chunks.map((c: { text: string }) => c.text).join(" ")).toContain(
      "Zipped pages are read as text.",
    );
  });

  it("knows a PDF and a page of HTML by their bytes when the server names another type", async () => {
    // A PDF sent as text/html (a download script's default) and a page sent as a download.
    site.setRaw(
      "/mislabelled/guide",
      "text/html; charset=utf-8",
      makePdf([["Mislabelled guide: labs open at nine."]], "Lab Guide"),
    );
    site.setRaw(
      "/mislabelled/page",
      "application/octet-stream",
      "\n<!DOCTYPE html><html><head><title>Downloaded page | Northfield</title></head><body><main><p>Served as bytes, read as a page.</p></main></body></html>",
    );
    const id = await fewUrlsWebsite("/mislabelled/guide");
    await call("POST", `/v1/apps/${appId}/websites/${id}/urls/bulk_create`, {
      token,
      body: { urls: [`${site.base}/mislabelled/page`] },
    });
    await call("POST", `/v1/apps/${appId}/websites/${id}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed" },
    });
    const outcome = async () => {
      const list = await call("GET", `/v1/apps/${appId}/websites/${id}/urls`, { token });
      const rows = list.body.data as { url: string; status: string; title: string | null }[];
      return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row]));
    };
    await until("both pages to be done", async () =>
      Object.values(await outcome()).every((row) => row.status === "indexed" || row.status === "failed_to_index"),
    );
    const rows = await outcome();
    expect(rows["/mislabelled/guide"]).toMatchObject({ status: "indexed", title: "Lab Guide" });
    expect(rows["/mislabelled/page"]).toMatchObject({ status: "indexed", title: "Downloaded page | Northfield" });
    const text = async (path: string) =>
      (
        await call("POST", `/v1/apps/${appId}/websites/${id}/urls/fetch_cached_chunks`, {
          token,
          body: { appId, url: `${site.base}${path}` },
        })
      ).body.chunks
        .map((c: { text: string }) => c.text)
        .join(" ");
    expect(await text("/mislabelled/guide")).toContain("Mislabelled guide: labs open at nine.");
    expect(await text("/mislabelled/page")).toContain("Served as bytes, read as a page.");
  });
});
