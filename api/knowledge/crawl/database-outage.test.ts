import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../../config";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import type { Logger } from "../../deps";
import { startApiHost, type ApiHost } from "../../host";
import { startDatabaseRelay } from "../../../tests/support/database-relay";
import { freshDatabase, TEST_SECRETS } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

// The database goes away while a worker indexes a website: its connections end, through a relay
// the test takes down (tests/support/database-relay.ts). Real PostgreSQL only.
const postgres = !!process.env.TEST_DATABASE_URL;

let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
let host: ApiHost;
let dropDatabase: () => Promise<void>;
let storageDir: string;
let appId: number;
let site: Server;
/** Pages the site was asked for, by path; each answer waits while `holding`. */
const served: string[] = [];
let holding = true;
const waiting: (() => void)[] = [];
/** What the job queue and the lease sweep report while the database is away: expected, not printed. */
const logged: string[] = [];
const log: Logger = {
  info: () => {},
  warn: (message) => logged.push(message),
  error: (message, ...rest) => logged.push(`${message} ${rest.map(String).join(" ")}`),
};

beforeAll(async () => {
  if (!postgres) return;
  site = createServer((req, res) => {
    if (req.url === "/robots.txt") return res.writeHead(404).end();
    served.push(req.url ?? "");
    const page = (req.url ?? "").slice(1);
    const send = () =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<html><head><title>${page}</title></head><body><main><h1>${page}</h1><p>Everything about ${page} at Northfield, for applicants and their families.</p></main></body></html>`,
        );
    if (holding) waiting.push(send);
    else send();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const database = await freshDatabase();
  dropDatabase = database.drop;
  relay = await startDatabaseRelay((database.options as { url: string }).url);
  storageDir = mkdtempSync(path.join(tmpdir(), "console-outage-"));
  host = await startApiHost({
    database: { url: relay.url },
    storageDir,
    // A short lease: its sweep runs every second.
    config: {
      ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", WORKER_LEASE_SECONDS: "3" }, TEST_SECRETS),
      demoSiteUrl: null,
    },
    log,
  });
  appId = (await host.deps.db.insert(clientApps).values({ clientName: "Outage", urlCode: "outage" }).returning())[0].id;
}, 60_000);

afterAll(async () => {
  if (!postgres) return;
  relay?.cutConnections();
  relay?.up();
  await host?.close();
  // A step of closing the host left behind past its bound (host.ts) is named in the run's output.
  for (const message of logged.filter((line) => line.startsWith("closing:"))) process.stdout.write(`${message}\n`);
  await relay?.close();
  await dropDatabase?.();
  // A page still held keeps its connection open, and close() would wait for it.
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(storageDir, { recursive: true, force: true });
  // Closing waits for the workers' leases and the relay on a loaded machine: past a hook's usual 60 s once in CI.
}, 120_000);

/** A website of `names` pages to index, its job sent, and every page fetched and held by the site. */
async function indexingHeld(names: string[]) {
  const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  holding = true;
  const [website] = await host.deps.db
    .insert(websites)
    .values({ appId, url: `${base}/`, siteMap: "few_urls", seedUrls: [], status: "sitemap_generated" })
    .returning();
  await host.deps.db
    .insert(urls)
    .values(names.map((name) => ({ appId, websiteId: website.id, url: `${base}/${name}`, status: "to_be_indexed" })));
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  await until("every page to be asked for", async () => names.every((name) => served.includes(`/${name}`)));
  return website.id;
}

/** Lets the site answer: the pages are extracted and their write is sent, and held by the stalled relay. */
async function answerAndHoldTheWrite() {
  relay.stallOn("with page as");
  holding = false;
  for (const send of waiting.splice(0)) send();
  await until("the pages' write to be sent", async () => relay.stalled());
}

const urlsOf = (websiteId: number) =>
  host.deps.db
    .select({ id: urls.id, status: urls.status, metadata: urls.metadata })
    .from(urls)
    .where(eq(urls.websiteId, websiteId))
    .orderBy(urls.id);

/** Waits (up to 30 s) for the website's pages to be done with; what they are then is for the test to say. */
const settled = (websiteId: number) =>
  until(
    "every page to be done with",
    // The test's own reads go through the relay too: one the cut ends is tried again.
    async () => (await urlsOf(websiteId).catch(() => null))?.every((row) => !/^(to_be_|sent_for_)/.test(row.status)),
    30_000,
  ).catch(() => {});

describe.skipIf(!postgres)("a database that goes away while pages are indexed", () => {
  it("indexes the pages it had in hand once the database is back, without the worker restarting", async () => {
    const websiteId = await indexingHeld(["tuition", "housing", "scholarships"]);
    await answerAndHoldTheWrite();
    // The write in flight fails, and so does every statement for two seconds.
    relay.down();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    relay.up();
    await settled(websiteId);
    const indexed = await urlsOf(websiteId);
    expect(indexed.map((row) => row.status)).toEqual(["indexed", "indexed", "indexed"]);
    for (const row of indexed) {
      const stored = await host.deps.db.select().from(chunks).where(eq(chunks.urlId, row.id));
      expect(stored.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it("indexes again a page whose write was cut, rather than failing it with the statement's text", async () => {
    const websiteId = await indexingHeld(["library", "athletics"]);
    await answerAndHoldTheWrite();
    // The connections end and the database answers again at once (a restart, a failover).
    relay.cutConnections();
    await settled(websiteId);
    const after = await urlsOf(websiteId);
    expect(after.map((row) => [row.status, row.metadata.error_message ?? null])).toEqual([
      ["indexed", null],
      ["indexed", null],
    ]);
  }, 60_000);
});
