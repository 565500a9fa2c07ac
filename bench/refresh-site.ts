/**
 * A server for the generated bench site (`../shared/bench-site`'s gen-site output) that answers as
 * a well-kept web server does: every page with an ETag and a Last-Modified, and 304 Not Modified
 * to a request whose If-None-Match or If-Modified-Since still holds. `change()` rewrites pages and,
 * when asked, moves their sitemap lastmod as a CMS would. Counts what it answered and the bytes it sent.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

interface ServedFile {
  body: Buffer;
  type: string;
  etag: string;
  lastModified: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".gz": "application/gzip",
  ".txt": "text/plain; charset=utf-8",
};

export interface SiteCounts {
  requests: number;
  full: number;
  notModified: number;
  bytes: number;
}

/** Serves the site generated under `root` for `port` (gen-site's --base names it in every sitemap). */
export async function startRefreshSite(root: string, port: number) {
  const files = new Map<string, ServedFile>();
  const put = (urlPath: string, body: Buffer, modified: Date) =>
    files.set(urlPath, {
      body,
      type: TYPES[path.extname(urlPath)] ?? "application/octet-stream",
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      lastModified: modified.toUTCString(),
    });
  const firstModified = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  (function walk(dir: string) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else put(`/${path.relative(root, file).split(path.sep).join("/")}`, readFileSync(file), firstModified);
    }
  })(root);
  if (files.has("/index.html")) files.set("/", files.get("/index.html")!);

  const counts: SiteCounts = { requests: 0, full: 0, notModified: 0, bytes: 0 };
  const server: Server = createServer((req, res) => {
    counts.requests += 1;
    const file = files.get((req.url ?? "/").split("?")[0]);
    if (!file) return res.writeHead(404).end();
    const unchanged =
      req.headers["if-none-match"] !== undefined
        ? req.headers["if-none-match"] === file.etag
        : req.headers["if-modified-since"] !== undefined &&
          Date.parse(req.headers["if-modified-since"]) >= Date.parse(file.lastModified);
    const validators = { etag: file.etag, "last-modified": file.lastModified };
    if (unchanged) {
      counts.notModified += 1;
      return res.writeHead(304, validators).end();
    }
    counts.full += 1;
    counts.bytes += file.body.length;
    res.writeHead(200, { "content-type": file.type, "content-length": file.body.length, ...validators }).end(file.body);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Every sitemap file, decompressed when gzipped, for reading and rewriting. */
  const sitemaps = () => [...files.keys()].filter((p) => /^\/sitemaps\/.+\.xml(\.gz)?$/.test(p));
  const xmlOf = (urlPath: string) => {
    const body = files.get(urlPath)!.body;
    return (urlPath.endsWith(".gz") ? gunzipSync(body) : body).toString("utf8");
  };
  const rewriteSitemap = (urlPath: string, xml: string) =>
    put(urlPath, urlPath.endsWith(".gz") ? gzipSync(xml) : Buffer.from(xml), new Date());

  return {
    base,
    counts,
    resetCounts() {
      Object.assign(counts, { requests: 0, full: 0, notModified: 0, bytes: 0 });
    },
    /** The article pages, in address order. */
    articles: () => [...files.keys()].filter((p) => p.startsWith("/articles/")).sort(),
    /** Pages get a new paragraph (and, with `moveLastmod`, today's lastmod in their sitemap). */
    change(paths: string[], moveLastmod: boolean) {
      const now = new Date();
      for (const urlPath of paths) {
        const file = files.get(urlPath)!;
        put(
          urlPath,
          Buffer.from(
            file.body
              .toString("utf8")
              .replace("</main>", `<p>Updated on ${now.toISOString()}: the figures above were revised.</p></main>`),
          ),
          now,
        );
      }
      if (!moveLastmod) return;
      const changed = new Set(paths.map((p) => `${base}${p}`));
      const today = now.toISOString();
      for (const sitemap of sitemaps()) {
        const xml = xmlOf(sitemap);
        const moved = xml.replace(/<loc>([^<]+)<\/loc><lastmod>[^<]*<\/lastmod>/g, (whole, loc: string) =>
          changed.has(loc) ? `<loc>${loc}</loc><lastmod>${today}</lastmod>` : whole,
        );
        if (moved !== xml) rewriteSitemap(sitemap, moved);
      }
    },
    /** The sitemaps without any lastmod: a refresh then rests on the pages' validators alone. */
    dropLastmods() {
      for (const sitemap of sitemaps())
        rewriteSitemap(sitemap, xmlOf(sitemap).replace(/<lastmod>[^<]*<\/lastmod>/g, ""));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
