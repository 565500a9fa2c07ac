import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { HostGate } from "./host-gate";
import { readRobots } from "./sitemaps";

/** When each of three 30 ms requests to one host began, through a gate of two at once and a crawl-delay of 150 ms. */
async function threeRequestsStarted() {
  const gate = new HostGate(2);
  const starts: number[] = [];
  const request = async () => {
    starts.push(performance.now());
    await new Promise((resolve) => setTimeout(resolve, 30));
  };
  await Promise.all([1, 2, 3].map(() => gate.run("example.edu", 0.15, request)));
  return starts;
}

describe("politeness", () => {
  it("reads crawl-delay, disallow rules and sitemaps from robots.txt", async () => {
    const server = createServer((req, res) => {
      res.end(
        req.url === "/robots.txt"
          ? "User-agent: *\nCrawl-delay: 2\nDisallow: /private/\nSitemap: https://example.edu/sitemap.xml\n"
          : "",
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const robots = await readRobots(base, { allowPrivate: true });
      expect(robots.crawlDelaySeconds).toBe(2);
      expect(robots.isAllowed(`${base}/private/page`)).toBe(false);
      expect(robots.isAllowed(`${base}/public`)).toBe(true);
      expect(robots.sitemaps).toEqual(["https://example.edu/sitemap.xml"]);
    } finally {
      server.close();
    }
  });

  it("spaces request starts to one host by the crawl-delay", async () => {
    const starts = await threeRequestsStarted();
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(149);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(149);
  });

  it("counts the crawl-delay from when a request actually began, so a late start pushes the next one back", async () => {
    const begun = performance.now();
    // The process is busy when the second request is due (150 ms in), so it starts about 100 ms
    // late, while the third is already waiting for its turn.
    setTimeout(() => {
      while (performance.now() - begun < 250);
    }, 140);
    const starts = await threeRequestsStarted();
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(240);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(149);
  });

  it("caps concurrency per host", async () => {
    let running = 0;
    let peak = 0;
    const task = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
    };
    const gate = new HostGate(2);
    await Promise.all([1, 2, 3, 4, 5].map(() => gate.run("example.edu", 0, task)));
    expect(peak).toBeLessThanOrEqual(2);
  });
});

describe("robots.txt that cannot be read", () => {
  it("is no rule at all when missing (4xx), and no page allowed when the server fails (5xx) or does not answer", async () => {
    let status = 404;
    const server = createServer((req, res) => {
      if (status === 0) return req.socket.destroy();
      res.writeHead(status, { "content-type": "text/plain" });
      res.end("User-agent: *\nDisallow: /\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const missing = await readRobots(base, { allowPrivate: true });
      expect(missing.unreadable).toBeNull();
      expect(missing.isAllowed(`${base}/page`)).toBe(true);
      status = 503;
      expect((await readRobots(base, { allowPrivate: true })).unreadable).toBe("could not be read (HTTP 503)");
      status = 429;
      expect((await readRobots(base, { allowPrivate: true })).unreadable).toBe("could not be read (HTTP 429)");
      status = 0;
      expect((await readRobots(base, { allowPrivate: true })).unreadable).toBe(
        `could not be read (${base.slice("http://".length)} closed the connection before answering)`,
      );
      // A private host allowed only under a path (the bundled demo site): its robots.txt, outside that
      // path, is refused by the crawler's own rules, not failed by the site, so it reads as missing.
      const underAPath = await readRobots(base, { allowPrivate: false, localExceptions: [`${base}/demo-site/`] });
      expect(underAPath.unreadable).toBeNull();
      expect(underAPath.isAllowed(`${base}/demo-site/page`)).toBe(true);
    } finally {
      server.close();
    }
  });
});
