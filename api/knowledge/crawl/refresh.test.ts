import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls, websites } from "../../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

/**
 * A refresh asks each page only for what changed: validators sent back (a 304 is read without a
 * body), pages whose sitemap lastmod is older than their last check not fetched at all, a page
 * whose text changed written again, a page that is gone marked with its reason and its passages
 * removed. A site of our own answers as real servers do and counts what it sent.
 */
const TEXT =
  "Our library lends books, journals and laptops to every enrolled student for up to three weeks at a time, renewable twice online.";
const page = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

let version = 1;
const served: { path: string; status: number }[] = [];
let server: Server;
let base = "";

function startSite() {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    const send = (status: number, body = "", headers: Record<string, string> = {}) => {
      served.push({ path, status });
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
    };
    if (path === "/sitemap.xml") {
      res.writeHead(200, { "content-type": "application/xml" })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        ${["/etag", "/modified", "/plain", "/changing", "/going"].map((p) => `<url><loc>${base}${p}</loc></url>`).join("")}
        <url><loc>${base}/dated</loc><lastmod>2020-01-15</lastmod></url></urlset>`);
      return;
    }
    if (path === "/etag") {
      if (req.headers["if-none-match"] === '"v1"') return send(304, "", { etag: '"v1"' });
      return send(200, page("Library loans", TEXT), { etag: '"v1"' });
    }
    if (path === "/modified") {
      const stamp = "Mon, 02 Nov 2026 10:00:00 GMT";
      if (req.headers["if-modified-since"] === stamp) return send(304, "", { "last-modified": stamp });
      return send(200, page("Opening hours", `The reading rooms open at eight. ${TEXT}`), { "last-modified": stamp });
    }
    if (path === "/plain") return send(200, page("Study rooms", `Study rooms are booked online. ${TEXT}`));
    if (path === "/changing")
      return send(
        200,
        page(
          "Fines",
          version === 1
            ? `Late returns cost 20 cents a day. ${TEXT}`
            : `Late returns cost 50 cents a day from January. ${TEXT}`,
        ),
      );
    if (path === "/going")
      return version === 1 ? send(200, page("Printing", `Printing costs 10 cents a page. ${TEXT}`)) : send(410, "gone");
    if (path === "/dated") return send(200, page("History", `The library opened in 1892. ${TEXT}`));
    res.writeHead(404).end();
  });
  return new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;

const rows = async () =>
  (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=100`, { token })).body.data as {
    id: number;
    url: string;
    status: string;
    checked_at: string | null;
    changed_at: string | null;
    metadata: { error_message?: string };
  }[];
const rowOf = async (path: string) => (await rows()).find((r) => r.url === `${base}${path}`)!;
const indexAll = async () => {
  await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
    token,
    body: { status: "to_be_indexed" },
  });
  // Each page's outcome is counted in the website's record with its write: once no page waits, all six are in it.
  await until("indexing to finish", async () => (await rows()).every((r) => !/^(to_be_|sent_for_)/.test(r.status)));
};
const website = async () =>
  (await call("GET", `/v1/apps/${appId}/websites?page=1&page_size=100`, { token })).body.websites.find(
    (w: { id: number }) => w.id === websiteId,
  );
const chunkText = async (path: string) =>
  (
    (
      await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
        token,
        body: { url: `${base}${path}` },
      })
    ).body.chunks as { text: string }[]
  )
    .map((c) => c.text)
    .join(" ");

beforeAll(async () => {
  await startSite();
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url: `${base}/`, site_map: "full_website" }] },
  });
  websiteId = created.body.websites[0].id;
  await until("sitemap generation", async () => (await rows()).length === 6);
  await indexAll();
});
afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a refresh fetches only what changed", () => {
  it("indexes every page the first time, keeping their validators", async () => {
    expect((await rows()).map((r) => r.status)).toEqual(Array(6).fill("indexed"));
    const record = (await website()).last_refresh;
    expect(record).toMatchObject({ checked: 0, new: 6, failed: 0 });
    // An instant in ISO UTC, as every other time the API answers.
    expect(record.started_at).toBe(new Date(record.started_at).toISOString());
    expect(Date.now() - Date.parse(record.started_at)).toBeLessThan(60_000);
    const [etag] = await host.deps.db
      .select({ etag: urls.etag })
      .from(urls)
      .where(eq(urls.url, `${base}/etag`));
    expect(etag.etag).toBe('"v1"');
    const [modified] = await host.deps.db
      .select({ lastModified: urls.lastModified })
      .from(urls)
      .where(eq(urls.url, `${base}/modified`));
    expect(modified.lastModified).toBe("Mon, 02 Nov 2026 10:00:00 GMT");
  });

  it("sends validators back, skips what the sitemap says is unchanged, rewrites what changed and drops what is gone", async () => {
    const before = Object.fromEntries((await rows()).map((r) => [r.url.slice(base.length), r]));
    served.length = 0;
    version = 2;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await indexAll();
    const answered = Object.fromEntries(served.map((s) => [s.path, s.status]));
    expect(answered["/etag"]).toBe(304);
    expect(answered["/modified"]).toBe(304);
    expect(answered["/plain"]).toBe(200);
    expect(answered["/changing"]).toBe(200);
    expect(answered["/going"]).toBe(410);
    // The sitemap dates this page long before it was indexed: not asked for at all.
    expect(answered["/dated"]).toBeUndefined();

    for (const path of ["/etag", "/modified", "/plain", "/dated"]) {
      const row = await rowOf(path);
      expect(row.status).toBe("indexed");
      expect(Date.parse(row.checked_at!)).toBeGreaterThan(Date.parse(before[path].checked_at!));
      expect(row.changed_at).toBe(before[path].changed_at);
    }
    const changed = await rowOf("/changing");
    expect(Date.parse(changed.changed_at!)).toBeGreaterThan(Date.parse(before["/changing"].changed_at!));
    expect(await chunkText("/changing")).toContain("50 cents a day from January");

    const gone = await rowOf("/going");
    expect(gone.status).toBe("failed_to_index");
    expect(gone.metadata.error_message).toBe("The page is gone (HTTP 410)");
    expect(await chunkText("/going")).toBe("");
    expect(await chunkText("/etag")).toContain("lends books");

    // The website says what the refresh did.
    expect((await website()).last_refresh).toMatchObject({
      checked: 6,
      unchanged: 4,
      changed: 1,
      gone: 1,
      new: 0,
      failed: 0,
    });
  });

  it("fetches the whole page again on Force Index, validators or not", async () => {
    served.length = 0;
    const etagRow = await rowOf("/etag");
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: [etagRow.id], force_index: true },
    });
    await until("the forced page", async () => (await rowOf("/etag")).status === "indexed" && served.length > 0);
    expect(served).toEqual([{ path: "/etag", status: 200 }]);
  });

  it("answers when a refresh began in ISO UTC, for a record kept with its session's offset too", async () => {
    const kept = { checked: 6, unchanged: 6, changed: 0, gone: 0, new: 0, failed: 0 };
    await host.deps.db
      .update(websites)
      .set({ lastRefresh: { started_at: "2026-12-05T10:56:54.89+13:00", ...kept } })
      .where(eq(websites.id, websiteId));
    expect((await website()).last_refresh).toEqual({ started_at: "2026-12-04T21:56:54.890Z", ...kept });
  });
});
