import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { apiConfigFromEnv } from "./config";
import type { Logger } from "./deps";
import { startApiHost, type ApiHost } from "./host";
import { safeFetch } from "./knowledge/crawl/fetcher";
import { freshDatabase, TEST_SECRETS } from "../tests/support/test-host";

// A stopping process must end even when something it closes does not: a page that never answers,
// a database connection held by a statement that never ends. Each step of closing is waited for
// a bounded time (here half a second), then left behind and named.

const postgres = !!process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostClosingWithin(closeWaitMs: number) {
  const database = await freshDatabase();
  const storageDir = mkdtempSync(path.join(tmpdir(), "console-closing-"));
  const warnings: string[] = [];
  const log: Logger = {
    info: () => {},
    warn: (message) => warnings.push(message),
    error: (...args) => console.error(...args),
  };
  const host: ApiHost = await startApiHost({
    database: database.options,
    storageDir,
    config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true" }, TEST_SECRETS), demoSiteUrl: null },
    log,
    closeWaitMs,
  });
  cleanups.push(async () => {
    await database.drop();
    rmSync(storageDir, { recursive: true, force: true });
  });
  return { host, warnings };
}

/** A site that takes every request and never answers it. */
async function silentSite() {
  const site: Server = createServer(() => {});
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    site.closeAllConnections();
    if (site.listening) await new Promise<void>((resolve) => site.close(() => resolve()));
  };
  cleanups.push(close);
  return { address: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`, close };
}

it("closes though a page the crawler asked for never answers, and says what it left behind", async () => {
  const { host, warnings } = await hostClosingWithin(500);
  const { address, close } = await silentSite();
  const asked = safeFetch(address, { allowPrivate: true, timeoutMs: 20_000 }).catch((error: Error) => error);
  // The request is on its way before closing starts.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = Date.now();
  await host.close();
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(warnings).toContain("closing: the crawler's connections did not finish within 0.5 s; going on without it");
  // Left behind, the request fails once the site hangs up.
  await close();
  expect(await asked).toBeInstanceOf(Error);
}, 30_000);

it.skipIf(!postgres)(
  "closes though a statement holds a database connection and never ends, and ends that connection",
  async () => {
    const { host, warnings } = await hostClosingWithin(500);
    const said = vi.spyOn(console, "warn").mockImplementation(() => {});
    cleanups.push(() => said.mockRestore());
    if (host.handle.kind !== "postgres") throw new Error("PostgreSQL only");
    const held = await host.handle.pool.connect();
    const sleeping = held.query("select pg_sleep(600)").then(
      () => "answered",
      () => "ended",
    );
    const started = Date.now();
    await host.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await sleeping).toBe("ended");
    expect(said).toHaveBeenCalledWith("[db] 1 connection(s) still in use after 0.5 s of closing: ended");
    expect(warnings).toEqual([]);
  },
  30_000,
);
