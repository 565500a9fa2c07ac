import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { demoSitemap } from "../../api/db/demo-site";

const DEMO_DIR = path.resolve("public/demo-site");

/**
 * The bundled demo site on 127.0.0.1 as the server serves it at /demo-site/: its pages from
 * public/demo-site and its sitemap. `url` is the address the seed is given (`demoSiteUrl`).
 */
export async function serveDemoSite() {
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://demo.invalid").pathname;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/demo-site/`;
    if (pathname === "/robots.txt") return void res.writeHead(404).end();
    if (pathname === "/demo-site/sitemap.xml")
      return void res.writeHead(200, { "content-type": "application/xml" }).end(demoSitemap(base));
    const file = pathname.replace(/^\/demo-site\//, "").replace(/(^|\/)$/, "$1index.html");
    if (!pathname.startsWith("/demo-site/") || file.includes("..")) return void res.writeHead(404).end();
    readFile(path.join(DEMO_DIR, file)).then(
      (html) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/demo-site/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
