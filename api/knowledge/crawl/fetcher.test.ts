import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchRefused, safeFetch } from "./fetcher";

/** The crawler's GET against a real local server: redirects, limits, deadlines and the address guard. */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/page") {
      res.writeHead(200, { "content-type": "Text/HTML; charset=utf-8" });
      res.end("<html><body><p>Bonjour, été</p></body></html>");
    } else if (path.startsWith("/hop/")) {
      const left = Number(path.split("/")[2]);
      res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : "/page" });
      res.end();
    } else if (path === "/to-localhost") {
      res.writeHead(301, { location: `http://localhost:${(server.address() as AddressInfo).port}/page` });
      res.end();
    } else if (path === "/declared-huge") {
      res.writeHead(200, { "content-type": "text/html", "content-length": String(3 * 1024 * 1024) });
      res.end();
    } else if (path === "/streamed-huge") {
      res.writeHead(200, { "content-type": "text/html" });
      const block = "x".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 3 * 1024 * 1024 && res.write(block)) sent += block.length;
        if (sent < 3 * 1024 * 1024) res.once("drain", more);
        else res.end();
      };
      res.on("error", () => {});
      more();
    } else if (path.startsWith("/compressed/")) {
      // Sent compressed although the crawler asked for no compression, as object stores serving
      // files stored compressed do.
      const coding = path.split("/")[2];
      const page = Buffer.from("<html><body><p>Bonjour, été</p></body></html>");
      const body =
        coding === "gzip"
          ? gzipSync(page)
          : coding === "br"
            ? brotliCompressSync(page)
            : coding === "deflate"
              ? deflateSync(page)
              : coding === "bomb"
                ? gzipSync(Buffer.alloc(3 * 1024 * 1024, 32))
                : page;
      res.writeHead(200, { "content-type": "text/html", "content-encoding": coding === "bomb" ? "gzip" : coding });
      res.end(body);
    } else if (path === "/loop-a" || path === "/loop-b") {
      res.writeHead(302, { location: path === "/loop-a" ? "/loop-b" : "/loop-a" });
      res.end();
    } else if (path === "/hangs-up") {
      req.socket.destroy();
    } else if (path === "/stalls") {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><body>the start, then nothing");
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const local = { allowPrivate: true, timeoutMs: 2000 };
const refusedWith = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchRefused);
  return (error as Error).message;
};

describe("safeFetch", () => {
  it("answers the page's address, status, bare content type and body", async () => {
    const page = await safeFetch(`${base}/page`, local);
    expect(page).toMatchObject({ url: `${base}/page`, status: 200, contentType: "text/html" });
    expect(page.body.toString("utf8")).toContain("Bonjour, été");
    expect((await safeFetch(`${base}/missing`, local)).status).toBe(404);
  });

  it("follows redirects to the final address, up to the limit", async () => {
    expect((await safeFetch(`${base}/hop/3`, local)).url).toBe(`${base}/page`);
    expect(await refusedWith(safeFetch(`${base}/hop/9`, { ...local, maxRedirects: 5 }))).toBe(
      `${base}/hop/9 redirects more than 5 times`,
    );
  });

  it("says a redirect loop is one, instead of counting its hops", async () => {
    expect(await refusedWith(safeFetch(`${base}/loop-a`, local))).toBe(
      `${base}/loop-a redirects in a loop, back to ${base}/loop-a`,
    );
  });

  it("refuses private addresses, by literal and by what a name resolves to, at every hop", async () => {
    expect(await refusedWith(safeFetch(`${base}/page`, { allowPrivate: false }))).toBe(
      "127.0.0.1 is a private or reserved address",
    );
    const port = (server.address() as AddressInfo).port;
    expect(await refusedWith(safeFetch(`http://localhost:${port}/page`, { allowPrivate: false }))).toMatch(
      /^localhost resolves to a private or reserved address$/,
    );
    // The first address is an allowed exception; the one it redirects to is not.
    expect(
      await refusedWith(safeFetch(`${base}/to-localhost`, { allowPrivate: false, localExceptions: [`${base}/`] })),
    ).toMatch(/^localhost resolves to/);
    // Allowed under one path only: a redirect out of it names where the page sent the crawler.
    expect(
      await refusedWith(safeFetch(`${base}/hop/0`, { allowPrivate: false, localExceptions: [`${base}/hop/`] })),
    ).toBe(`${base}/hop/0 redirects to ${base}/page, a private or reserved address`);
  });

  it("stops reading past the size limit, declared or streamed", async () => {
    const limits = { ...local, maxBytes: 1024 * 1024 };
    expect(await refusedWith(safeFetch(`${base}/declared-huge`, limits))).toBe(
      `${base}/declared-huge is larger than 1 MB`,
    );
    expect(await refusedWith(safeFetch(`${base}/streamed-huge`, limits))).toBe(
      `${base}/streamed-huge is larger than 1 MB`,
    );
  });

  it("unzips a page sent compressed unasked, to the same size limit, and refuses a coding it cannot read", async () => {
    for (const coding of ["gzip", "br", "deflate"]) {
      const page = await safeFetch(`${base}/compressed/${coding}`, local);
      expect(page.body.toString("utf8")).toBe("<html><body><p>Bonjour, été</p></body></html>");
    }
    expect(await refusedWith(safeFetch(`${base}/compressed/bomb`, { ...local, maxBytes: 2 * 1024 * 1024 }))).toBe(
      `${base}/compressed/bomb is larger than 2 MB`,
    );
    expect(await refusedWith(safeFetch(`${base}/compressed/zstd`, local))).toBe(
      `${base}/compressed/zstd is sent compressed as zstd, which is not read`,
    );
  });

  it("gives up on a body that stops coming, within the deadline", async () => {
    const started = Date.now();
    expect(await refusedWith(safeFetch(`${base}/stalls`, { allowPrivate: true, timeoutMs: 500 }))).toBe(
      `${base}/stalls did not answer within 0.5 s`,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("says in plain words why a connection failed, without system calls, addresses or library paths", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await refusedWith(safeFetch(`http://127.0.0.1:${closedPort}/page`, local))).toBe(
      `127.0.0.1:${closedPort} refused the connection`,
    );
    expect(await refusedWith(safeFetch(`${base}/hangs-up`, local))).toBe(
      `${base.slice("http://".length)} closed the connection before answering`,
    );
    expect(await refusedWith(safeFetch("http://no-such-host.invalid/page", local))).toMatch(
      /^no-such-host\.invalid (was not found: no such host name|could not be looked up just now)$/,
    );
    // A plain-HTTP server asked for TLS: OpenSSL's own message names its source file.
    expect(await refusedWith(safeFetch(`${base.replace("http:", "https:")}/page`, local))).toBe(
      `${base.slice("http://".length)} has no valid security certificate or secure connection`,
    );
  });

  it("refuses addresses that are not http(s)", async () => {
    expect(await refusedWith(safeFetch("ftp://example.edu/file", local))).toBe(
      "ftp://example.edu/file is not an http(s) address",
    );
  });
});
