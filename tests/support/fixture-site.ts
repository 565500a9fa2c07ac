import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { makePdf } from "./pdf";

const layout = (
  title: string,
  body: string,
) => `<!doctype html><html><head><title>${title}</title><script>window.track = "analytics";</script></head>
<body><header><nav><a href="/">Home</a> <a href="/programs/nursing">Programs</a> <a href="/apply">Apply now</a></nav></header>
<div id="cookie-consent">This site uses cookies. Accept all?</div>
<main>${body}</main>
<footer>Northfield Demo University · 1 College Road · All rights reserved</footer></body></html>`;

/**
 * A small website on 127.0.0.1 for crawler tests: robots.txt with a disallowed folder and the
 * sitemap index, a plain and a gzipped sitemap, ordinary pages, a redirect, 404 and 500 pages, a
 * slow page, an oversized page, a PDF and a JSON document. Pages, sitemaps and delays can be
 * changed while it runs.
 */
export async function startFixtureSite(options: { slowMs?: number } = {}) {
  const pages = new Map<string, string>([
    [
      "/",
      layout(
        "Northfield Demo University",
        "<h1>Welcome to Northfield</h1><p>Northfield is a small university with big ambitions. We offer forty undergraduate programs.</p>",
      ),
    ],
    [
      "/programs/nursing",
      layout(
        "Nursing BSN | Northfield",
        "<h1>Nursing (BSN)</h1><p>The four-year nursing program prepares you for licensure.</p><h2>Admission requirements</h2><p>Applicants need a high-school diploma and two years of laboratory science.</p><h2>Tuition</h2><p>Tuition is $12,400 per semester.</p>",
      ),
    ],
    ["/about", layout("About | Northfield", "<h1>About us</h1><p>Founded in 1891 on the shores of Lake Ardent.</p>")],
    [
      "/admissions",
      layout("Admissions | Northfield", "<h1>Admissions</h1><p>Applications for fall close on January 15.</p>"),
    ],
    [
      "/landing",
      layout("Landing | Northfield", "<h1>Landing page</h1><p>You were redirected here from an old address.</p>"),
    ],
    ["/private/secret", layout("Secret", "<p>Staff only.</p>")],
    ["/blog/news", layout("News", "<p>Campus news.</p>")],
  ]);
  const sitemapPaths = [
    "/",
    "/programs/nursing",
    "/redirect-me",
    "/missing",
    "/broken",
    "/slow",
    "/huge",
    "/guide.pdf",
    "/data.json",
    "/private/secret",
    "/blog/news",
  ];
  let gzPaths = ["/about", "/admissions"];
  const lastmods = new Map<string, string>([["/admissions", "2026-01-01"]]);
  let slowMs = options.slowMs ?? 3000;
  // Slow pages asked for beyond `holdAfter` (counted from the hold) wait for a release: a test can
  // then count on requests staying in flight for as long as it needs, whatever the machine's load.
  let holdAfter = Infinity;
  let slowAskedSinceHold = 0;
  let held: (() => void)[] = [];
  const requests: string[] = [];
  /** Responses served as they are, without the site's layout (a PDF, a script-only shell). */
  const raw = new Map<string, { type: string; body: string | Buffer; headers?: Record<string, string> }>();
  /** Pages that answer "busy" (429, 503) the next `times` they are asked for, with their Retry-After. */
  const busy = new Map<string, { status: number; retryAfter: string | null; times: number }>();
  /** When each path was asked for (Date.now()), in order. */
  const askedAt = new Map<string, number[]>();
  /** Pages that redirect elsewhere (another host, say), by path. */
  const redirects = new Map<string, string>();

  const urlset = (base: string, paths: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
      .map((p) => `<url><loc>${base}${p}</loc>${lastmods.has(p) ? `<lastmod>${lastmods.get(p)}</lastmod>` : ""}</url>`)
      .join("")}</urlset>`;

  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const path = new URL(req.url ?? "/", base).pathname;
    requests.push(path);
    askedAt.set(path, [...(askedAt.get(path) ?? []), Date.now()]);
    const busyPage = busy.get(path);
    if (busyPage && busyPage.times > 0) {
      busyPage.times -= 1;
      res.writeHead(busyPage.status, {
        "content-type": "text/html",
        ...(busyPage.retryAfter === null ? {} : { "retry-after": busyPage.retryAfter }),
      });
      return res.end("<h1>Slow down</h1>");
    }
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    const rawPage = raw.get(path);
    if (rawPage) {
      res.writeHead(200, { "content-type": rawPage.type, ...rawPage.headers });
      return res.end(rawPage.body);
    }
    const redirect = redirects.get(path);
    if (redirect) {
      res.writeHead(302, { location: redirect });
      return res.end();
    }
    switch (path) {
      case "/robots.txt":
        return send(200, "text/plain", `User-agent: *\nDisallow: /private/\n\nSitemap: ${base}/sitemap_index.xml\n`);
      case "/sitemap_index.xml":
        return send(
          200,
          "application/xml",
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-pages.xml</loc></sitemap><sitemap><loc>${base}/sitemap-more.xml.gz</loc></sitemap></sitemapindex>`,
        );
      case "/sitemap-pages.xml":
        return send(200, "application/xml", urlset(base, sitemapPaths));
      case "/sitemap-more.xml.gz":
        return send(200, "application/gzip", gzipSync(urlset(base, gzPaths)));
      case "/redirect-me":
        res.writeHead(301, { location: "/landing" });
        return res.end();
      case "/broken":
        return send(500, "text/html", "<h1>Internal error</h1>");
      case "/slow": {
        const answer = () => setTimeout(() => send(200, "text/html", layout("Slow", "<p>Finally.</p>")), slowMs);
        if (slowAskedSinceHold++ >= holdAfter) held.push(answer);
        else answer();
        return;
      }
      case "/huge":
        return send(200, "text/html", `<html><body><p>${"x".repeat(6 * 1024 * 1024)}</p></body></html>`);
      case "/guide.pdf":
        return send(
          200,
          "application/pdf",
          makePdf(
            [["Northfield applicant guide", "Visit campus on Fridays."], ["Financial aid deadlines are in March."]],
            "Applicant Guide",
          ),
        );
      case "/data.json":
        return send(200, "application/json", JSON.stringify({ programs: 40 }));
    }
    const page = pages.get(path);
    if (page) return send(200, "text/html; charset=utf-8", page);
    send(404, "text/html", "<h1>Not found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    setPage: (path: string, title: string, body: string) => pages.set(path, layout(title, body)),
    setRaw: (path: string, type: string, body: string | Buffer, headers?: Record<string, string>) =>
      raw.set(path, { type, body, headers }),
    setRedirect: (path: string, location: string) => redirects.set(path, location),
    /** The page answers `status` (429, 503) with this Retry-After the next `times` it is asked for. */
    setBusy: (path: string, status: number, retryAfter: string | null, times: number) =>
      busy.set(path, { status, retryAfter, times }),
    /** When the path was asked for (Date.now()), in order. */
    askedAt: (path: string) => askedAt.get(path) ?? [],
    setGzSitemap: (paths: string[]) => {
      gzPaths = paths;
    },
    setLastmod: (path: string, value: string) => lastmods.set(path, value),
    setSlowMs: (ms: number) => {
      slowMs = ms;
    },
    /** Answers the next `count` slow pages as usual and holds every later one until released. */
    holdSlowPagesAfter: (count: number) => {
      holdAfter = count;
      slowAskedSinceHold = 0;
    },
    releaseSlowPages: () => {
      holdAfter = Infinity;
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
