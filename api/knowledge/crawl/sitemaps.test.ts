import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSitemaps, sitemapsError } from "./sitemaps";

/** Sitemaps served on 127.0.0.1, by path. */
const served = new Map<string, Buffer | string>();
let server: Server;
let base = "";
const local = { allowPrivate: true, timeoutMs: 5000 };
const urlset = (locs: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((loc) => `<url><loc>${loc}</loc><lastmod>2026-05-01</lastmod></url>`)
    .join("")}</urlset>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served.get(req.url ?? "");
    if (body === undefined) return res.writeHead(404).end();
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const keepOwn = {
  keep: (entry: { url: string }) => entry.url.startsWith("https://www.example.edu/"),
  maxEntries: 1000,
};

describe("reading sitemaps", () => {
  it("follows an index to gzipped and plain sitemaps, namespaced or not, keeping what the website keeps", async () => {
    served.set(
      "/index.xml",
      `<?xml version="1.0"?><sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:sitemap><sm:loc>${base}/a.xml.gz</sm:loc></sm:sitemap><sm:sitemap><sm:loc>${base}/b.xml</sm:loc></sm:sitemap>
      </sm:sitemapindex>`,
    );
    served.set("/a.xml.gz", gzipSync(urlset(["https://www.example.edu/a?x=1&amp;y=2", "https://other.example/a"])));
    served.set("/b.xml", `<urlset><url><loc><![CDATA[ https://www.example.edu/b ]]></loc></url></urlset>`);
    const found = await readSitemaps([`${base}/index.xml`], local, keepOwn);
    expect(found.entries).toEqual([
      { url: "https://www.example.edu/a?x=1&y=2", lastmod: "2026-05-01" },
      { url: "https://www.example.edu/b", lastmod: null },
    ]);
    expect(found.sitemaps).toEqual([`${base}/index.xml`, `${base}/a.xml.gz`, `${base}/b.xml`]);
    expect(found).toMatchObject({ errors: [], complete: true });
  });

  it("reads a page's own address, not the addresses of its images or videos", async () => {
    served.set(
      "/images.xml",
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url><loc>https://www.example.edu/with-image</loc>
          <image:image><image:loc>https://www.example.edu/img/photo.jpg</image:loc></image:image>
          <lastmod>2026-05-02</lastmod></url>
      </urlset>`,
    );
    const found = await readSitemaps([`${base}/images.xml`], local, keepOwn);
    expect(found.entries).toEqual([{ url: "https://www.example.edu/with-image", lastmod: "2026-05-02" }]);
  });

  it("reads on past a child sitemap that fails, and says the pages it lists are not known this time", async () => {
    served.set(
      "/flaky-index.xml",
      `<sitemapindex><sitemap><loc>${base}/gone-for-now.xml</loc></sitemap><sitemap><loc>${base}/b-ok.xml</loc></sitemap></sitemapindex>`,
    );
    served.set("/b-ok.xml", urlset(["https://www.example.edu/ok"]));
    const found = await readSitemaps([`${base}/flaky-index.xml`], local, keepOwn);
    expect(found.entries.map((entry) => entry.url)).toEqual(["https://www.example.edu/ok"]);
    expect(found).toMatchObject({ complete: false, errors: [`${base}/gone-for-now.xml: HTTP 404`] });
    // A guessed location that is not there, or cannot be reached, is no sitemap, not a sitemap unread.
    const guessed = await readSitemaps(
      [`${base}/nothing.xml`, "http://127.0.0.1:1/sitemap.xml", `${base}/b-ok.xml`],
      local,
      { ...keepOwn, guessed: true },
    );
    expect(guessed).toMatchObject({ complete: true });
    expect(guessed.errors[0]).toBe(`${base}/nothing.xml: HTTP 404`);
    // Named by robots.txt, a sitemap that is not there is one unread.
    const named = await readSitemaps([`${base}/nothing.xml`, `${base}/b-ok.xml`], local, keepOwn);
    expect(named.complete).toBe(false);
  });

  it("keeps one page once however the sitemap writes its address: a fragment or the host's case", async () => {
    served.set(
      "/variants.xml",
      urlset([
        "https://www.example.edu/variant",
        "https://www.example.edu/variant#section",
        "https://WWW.EXAMPLE.EDU/variant",
        "https://www.example.edu/variant/",
      ]),
    );
    const found = await readSitemaps([`${base}/variants.xml`], local, keepOwn);
    // A trailing slash may name another page, as servers treat it.
    expect(found.entries.map((entry) => entry.url)).toEqual([
      "https://www.example.edu/variant",
      "https://www.example.edu/variant/",
    ]);
  });

  it("says a page of HTML is not a sitemap", async () => {
    served.set(
      "/page.html",
      "<!doctype html><html><body><url><loc>https://www.example.edu/x</loc></url></body></html>",
    );
    const found = await readSitemaps([`${base}/page.html`], local, keepOwn);
    expect(found).toMatchObject({ entries: [], sitemaps: [], errors: [`${base}/page.html: not a sitemap`] });
  });

  it("stops at the pages a website keeps at most, and says the sitemaps list more", async () => {
    const own = Array.from({ length: 50 }, (_, i) => `https://www.example.edu/p/${i}`);
    served.set("/many.xml", urlset(own));
    served.set("/more.xml", urlset(["https://www.example.edu/never-read"]));
    const found = await readSitemaps([`${base}/many.xml`, `${base}/more.xml`], local, { ...keepOwn, maxEntries: 20 });
    expect(found.entries.map((entry) => entry.url)).toEqual(own.slice(0, 20));
    expect(found.complete).toBe(false);
    expect(found.errors).toEqual([
      `${base}/many.xml: read up to 20 pages, the most a website keeps; the sitemaps list more`,
    ]);
  });

  it("keeps none of the other hosts' pages a sitemap lists, however many", async () => {
    const others = Array.from({ length: 100_000 }, (_, i) => `https://elsewhere-${i % 7}.example/p/${i}`);
    served.set("/others.xml.gz", gzipSync(urlset([...others, "https://www.example.edu/own"])));
    const found = await readSitemaps([`${base}/others.xml.gz`], local, keepOwn);
    expect(found.entries.map((entry) => entry.url)).toEqual(["https://www.example.edu/own"]);
    expect(found.complete).toBe(true);
  });

  it("says why sitemaps read whole gave the website no page: they list another host's", async () => {
    served.set("/apex.xml", urlset(["https://example.edu/a", "https://example.edu/b"]));
    const found = await readSitemaps([`${base}/apex.xml`], local, keepOwn);
    expect(found.entries).toEqual([]);
    const robots = { isAllowed: () => true, crawlDelaySeconds: 0, sitemaps: [], unreadable: null };
    expect(sitemapsError(found, robots)).toBe(
      "The sitemaps list 2 pages, none of them on this website's host or kept by its patterns and robots.txt (the first: https://example.edu/a)",
    );
    const kept = await readSitemaps([`${base}/apex.xml`, `${base}/b-ok.xml`], local, keepOwn);
    expect(sitemapsError(kept, robots)).toBeNull();
  });

  it("refuses a sitemap larger than 50 MB unzipped, without unzipping the rest", async () => {
    const filler = `<!-- ${"x".repeat(1024 * 1024)} -->`;
    served.set("/bomb.xml.gz", gzipSync(`<urlset>${filler.repeat(60)}</urlset>`));
    const found = await readSitemaps([`${base}/bomb.xml.gz`], local, keepOwn);
    expect(found.errors).toEqual([`${base}/bomb.xml.gz: larger than 50 MB unzipped`]);
    expect(found.complete).toBe(false);
  });

  it("says which sitemaps were not read, nested too deep or past the fifty read, and takes no page as gone", async () => {
    const index = (children: string[]) =>
      `<sitemapindex>${children.map((child) => `<sitemap><loc>${base}${child}</loc></sitemap>`).join("")}</sitemapindex>`;
    served.set("/deep-0.xml", index(["/deep-1.xml"]));
    served.set("/deep-1.xml", index(["/deep-2.xml"]));
    served.set("/deep-2.xml", index(["/deep-3.xml"]));
    served.set("/deep-3.xml", index(["/deep-4.xml"]));
    served.set("/deep-4.xml", urlset(["https://www.example.edu/deep"]));
    const deep = await readSitemaps([`${base}/deep-0.xml`], local, keepOwn);
    expect(deep.complete).toBe(false);
    expect(deep.errors).toEqual([
      `${base}/deep-3.xml: names sitemaps nested more than 3 indexes deep, which are not read (the first: ${base}/deep-4.xml)`,
    ]);

    const many = Array.from({ length: 55 }, (_, i) => `/many-${i}.xml`);
    for (const [i, path] of many.entries()) served.set(path, urlset([`https://www.example.edu/many-${i}`]));
    served.set("/many.xml", index(many));
    const found = await readSitemaps([`${base}/many.xml`], local, keepOwn);
    expect(found.entries).toHaveLength(49);
    expect(found.complete).toBe(false);
    expect(found.errors).toEqual([
      `6 sitemaps not read: a website's sitemaps are read up to 50 (the first not read: ${base}/many-49.xml)`,
    ]);
  });
});
