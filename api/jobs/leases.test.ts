import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../config";
import { chunks, clientApps, conversations, knowledgeFiles, urls, websites, workerLeases } from "../db/schema";
import { takeBackAbandonedFiles } from "../files/pipeline";
import { startApiHost } from "../host";
import { processWebsite } from "../knowledge/crawl/index-website";
import { takeBackAbandonedUrls } from "../knowledge/crawl/pipeline-recovery";
import { serveDemoSite } from "../../tests/support/demo-site";
import { freshDatabase, quietLog, startTestHost, TEST_SECRETS } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import { claimsInHand } from "./in-hand";
import { WorkerLease } from "./leases";

let host: Awaited<ReturnType<typeof startTestHost>>;
let appId: number;

beforeAll(async () => {
  // Short leases so a lapse is seen within seconds; this host's own worker sweeps every second.
  host = await startTestHost({ crawlAllowPrivate: true, workerLeaseSeconds: 3 });
  appId = (await host.deps.db.insert(clientApps).values({ clientName: "Leases", urlCode: "leases" }).returning())[0].id;
});
afterAll(() => host?.close());

/** A lease row as another process would hold it: live for `seconds` (negative: already lapsed). */
async function otherWorker(seconds: number) {
  const workerId = randomUUID();
  await host.deps.db
    .insert(workerLeases)
    .values({ workerId, process: "elsewhere:1", expiresAt: sql`now() + make_interval(secs => ${seconds})` });
  return workerId;
}

async function addWebsite(pageUrls: string[], status: string, db: Pick<typeof host.deps, "db">["db"] = host.deps.db) {
  const [website] = await db
    .insert(websites)
    .values({ appId, url: pageUrls[0], siteMap: "few_urls", seedUrls: pageUrls, status: "sitemap_generated" })
    .returning();
  const rows = await db
    .insert(urls)
    .values(pageUrls.map((url) => ({ appId, websiteId: website.id, url, status })))
    .returning();
  return { website, rows };
}

describe("worker leases", () => {
  it("takes back work of lapsed or unknown workers and never a live worker's, however long it has taken", async () => {
    const live = await otherWorker(3600);
    const dead = await otherWorker(-1);
    const dayAgo = new Date(Date.now() - 86_400_000);
    // Claimed and taken back in one transaction: this host's own sweep (every second) sees the
    // claims only once they are taken back, so what the direct calls return is theirs alone.
    const { website, taken, filesTaken, files } = await host.deps.db.transaction(async (tx) => {
      const { website, rows } = await addWebsite(
        ["https://leases.example/live", "https://leases.example/dead", "https://leases.example/unknown"],
        "sent_for_indexing",
        tx,
      );
      await tx.update(urls).set({ claimedBy: live, updatedAt: dayAgo }).where(eq(urls.id, rows[0].id));
      await tx.update(urls).set({ claimedBy: dead }).where(eq(urls.id, rows[1].id));
      await tx.update(urls).set({ claimedBy: randomUUID() }).where(eq(urls.id, rows[2].id));
      const files = await tx
        .insert(knowledgeFiles)
        .values([
          {
            appId,
            fileName: "live.pdf",
            uploadKey: "uploads/live.pdf",
            status: "sent_for_indexing",
            claimedBy: live,
            updatedAt: dayAgo,
          },
          { appId, fileName: "dead.pdf", uploadKey: "uploads/dead.pdf", status: "sent_for_indexing", claimedBy: dead },
        ])
        .returning();
      const taken = await takeBackAbandonedUrls({ ...host.deps, db: tx });
      const filesTaken = await takeBackAbandonedFiles({ ...host.deps, db: tx });
      return { website, taken, filesTaken, files };
    });

    const after = await host.deps.db.select().from(urls).where(eq(urls.websiteId, website.id)).orderBy(urls.id);
    expect(after.map((r) => [r.status, r.claimedBy])).toEqual([
      ["sent_for_indexing", live],
      ["to_be_indexed", null],
      ["to_be_indexed", null],
    ]);
    expect(taken.toProcess).toEqual([website.id]);
    expect(filesTaken).toEqual([files[1].id]);
    const [liveFile] = await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, files[0].id));
    expect([liveFile.status, liveFile.claimedBy]).toEqual(["sent_for_indexing", live]);
  });

  it("takes back a sitemap generation of a lapsed worker, and leaves a live one's alone", async () => {
    const live = await otherWorker(3600);
    const dead = await otherWorker(-1);
    const [mine, theirs] = await host.deps.db
      .insert(websites)
      .values([
        { appId, url: "https://live.example/", claimedBy: live },
        { appId, url: "https://dead.example/", claimedBy: dead },
      ])
      .returning();
    const taken = await takeBackAbandonedUrls(host.deps);
    expect(taken.toDiscover).toEqual([theirs.id]);
    const [still] = await host.deps.db.select().from(websites).where(eq(websites.id, mine.id));
    expect([still.status, still.claimedBy]).toEqual(["pending_sitemap_generation", live]);
  });

  it("puts back its own URLs that no job has in hand any more, and never one a job is working on", async () => {
    // This process's worker, alive: its claims outlive a write that failed while the database was away.
    const me = await otherWorker(3600);
    const { website, rows } = await addWebsite(
      ["https://hand.example/a", "https://hand.example/b", "https://hand.example/c"],
      "to_be_indexed",
    );
    const inHand = claimsInHand("urls", me);
    await inHand.claim(() =>
      host.deps.db
        .update(urls)
        .set({ status: "sent_for_indexing", claimedBy: me })
        .where(eq(urls.websiteId, website.id))
        .returning(),
    );
    // The third page's outcome could not be written: its job let go of it.
    inHand.drop([rows[2].id]);
    // Another process's sweep leaves a live worker's claims alone; this worker's own takes back the third.
    expect((await takeBackAbandonedUrls(host.deps)).toProcess).not.toContain(website.id);
    expect((await takeBackAbandonedUrls({ ...host.deps, workerId: me })).toProcess).toEqual([website.id]);
    const after = await host.deps.db.select().from(urls).where(eq(urls.websiteId, website.id)).orderBy(urls.id);
    expect(after.map((r) => [r.status, r.claimedBy])).toEqual([
      ["sent_for_indexing", me],
      ["sent_for_indexing", me],
      ["to_be_indexed", null],
    ]);
  });

  it("puts back its own files that no job has in hand any more, and never one a job is working on", async () => {
    const me = await otherWorker(3600);
    const files = await host.deps.db
      .insert(knowledgeFiles)
      .values(
        ["held.pdf", "dropped.pdf"].map((fileName) => ({
          appId,
          fileName,
          uploadKey: `uploads/hand/${fileName}`,
          status: "to_be_indexed",
        })),
      )
      .returning();
    const inHand = claimsInHand("files", me);
    await inHand.claim(() =>
      host.deps.db
        .update(knowledgeFiles)
        .set({ status: "sent_for_indexing", claimedBy: me })
        .where(
          inArray(
            knowledgeFiles.id,
            files.map((f) => f.id),
          ),
        )
        .returning(),
    );
    // The second file's outcome could not be written: its job let go of it.
    inHand.drop([files[1].id]);
    // Another process's sweep leaves a live worker's claims alone; this worker's own takes back the second.
    expect(await takeBackAbandonedFiles(host.deps)).not.toContain(files[1].id);
    expect(await takeBackAbandonedFiles({ ...host.deps, workerId: me })).toEqual([files[1].id]);
    const after = await host.deps.db
      .select()
      .from(knowledgeFiles)
      .where(
        inArray(
          knowledgeFiles.id,
          files.map((f) => f.id),
        ),
      )
      .orderBy(knowledgeFiles.id);
    expect(after.map((f) => [f.status, f.claimedBy])).toEqual([
      ["sent_for_indexing", me],
      ["to_be_indexed", null],
    ]);
  });

  it("keeps a worker's lease alive while it runs and gives it up when it stops; a sole process clears earlier leases", async () => {
    const lease = await WorkerLease.start(host.deps.db, { seconds: 3, soleProcess: false, log: quietLog });
    const expiry = async () =>
      (await host.deps.db.select().from(workerLeases).where(eq(workerLeases.workerId, lease.workerId)))[0]?.expiresAt;
    const first = await expiry();
    expect(first!.getTime()).toBeGreaterThan(Date.now());
    await until("a renewal", async () => (await expiry())!.getTime() > first!.getTime(), 10_000);
    await lease.release();
    expect(await expiry()).toBeUndefined();

    const earlier = await otherWorker(3600);
    const sole = await WorkerLease.start(host.deps.db, { seconds: 3, soleProcess: true, log: quietLog });
    const left = await host.deps.db.select({ workerId: workerLeases.workerId }).from(workerLeases);
    expect(left.map((l) => l.workerId)).not.toContain(earlier);
    expect(left.map((l) => l.workerId)).toContain(sole.workerId);
    await sole.release();
  });
});

describe("a worker whose lease lapsed mid-page", () => {
  let server: Server;
  let served = 0;
  beforeAll(async () => {
    // The first fetch is slow and sees the old text; later fetches see the page as it is now.
    server = createServer((req, res) => {
      if (req.url !== "/tuition") return res.writeHead(404).end();
      served += 1;
      const text = served === 1 ? "Tuition was 9,000 dollars." : "Tuition is 12,400 dollars from this fall.";
      const send = () =>
        res
          .writeHead(200, { "content-type": "text/html" })
          .end(
            `<html><head><title>Tuition</title></head><body><main><h1>Tuition</h1><p>${text}</p></main></body></html>`,
          );
      if (served === 1) setTimeout(send, 5000);
      else send();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("does not write over the result of the worker that took its page back", async () => {
    const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tuition`;
    const { website, rows } = await addWebsite([page], "to_be_indexed");
    // A worker in another process whose lease lapses after two seconds (it stops renewing, as if stalled).
    const stalled = await otherWorker(2);
    const late = processWebsite(website.id, { ...host.deps, workerId: stalled });
    // This host's worker sees the lapse, takes the page back and indexes it as it is now.
    await until(
      "the page to be taken back and indexed",
      async () => {
        const [row] = await host.deps.db.select().from(urls).where(eq(urls.id, rows[0].id));
        return row.status === "indexed";
      },
      20_000,
    );
    expect(await late).toEqual({ taken_back: 1 });
    const stored = await host.deps.db.select({ text: chunks.text }).from(chunks).where(eq(chunks.urlId, rows[0].id));
    expect(stored.map((c) => c.text).join(" ")).toContain("12,400");
    expect(stored.map((c) => c.text).join(" ")).not.toContain("9,000");
    expect(served).toBe(2);
  });
});

describe("a page that takes longer than several sweeps", () => {
  let server: Server;
  let served = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== "/housing") return res.writeHead(404).end();
      served += 1;
      setTimeout(
        () =>
          res
            .writeHead(200, { "content-type": "text/html" })
            .end(
              "<html><head><title>Housing</title></head><body><main><p>Every first-year student lives on campus.</p></main></body></html>",
            ),
        4000,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is fetched and written once: this worker's own sweeps leave the page its job has in hand", async () => {
    const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/housing`;
    const { website, rows } = await addWebsite([page], "to_be_indexed");
    await host.deps.jobs.send("website-process", { websiteId: website.id });
    await until(
      "the page to be indexed",
      async () => (await host.deps.db.select().from(urls).where(eq(urls.id, rows[0].id)))[0].status === "indexed",
      20_000,
    );
    expect(served).toBe(1);
  });
});

describe("the first start", () => {
  it("reads the seeded demo website once the server answers, on PostgreSQL too", async () => {
    const site = await serveDemoSite();
    const database = await freshDatabase();
    const storageDir = mkdtempSync(path.join(tmpdir(), "console-first-start-"));
    const first = await startApiHost({
      database: database.options,
      storageDir,
      config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true" }, TEST_SECRETS), demoSiteUrl: site.url },
      log: quietLog,
    });
    try {
      await first.resumePipeline();
      const [demo] = await until(
        "the demo website's sitemap generation",
        async () => {
          const found = await first.deps.db.select().from(websites);
          return found.length > 0 && found[0].status !== "pending_sitemap_generation" && found;
        },
        20_000,
      );
      expect(demo).toMatchObject({ status: "sitemap_generated", claimedBy: null });
      expect(demo.urlsCount).toBeGreaterThan(5);
    } finally {
      await first.close();
      await database.drop();
      await site.close();
      rmSync(storageDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("indexes the demo site at the next start when the first stopped right after seeding, queueing it once", async () => {
    const site = await serveDemoSite();
    const storageDir = mkdtempSync(path.join(tmpdir(), "console-first-start-"));
    // A database that outlives its process: a folder for PGlite, or the Postgres lane's server.
    const database = process.env.TEST_DATABASE_URL
      ? await freshDatabase()
      : { options: { dir: path.join(storageDir, "pglite") }, drop: async () => {} };
    const start = (work = true) =>
      startApiHost({
        database: database.options,
        storageDir,
        config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true" }, TEST_SECRETS), demoSiteUrl: site.url },
        work,
        log: quietLog,
      });
    const jobsOf = async (db: typeof host.deps.db, name: string) =>
      Number(
        (
          (await db.execute(
            sql`select count(*)::int as n from pgboss.job where pgboss.job.name = ${name}`,
          )) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0].n,
      );
    try {
      // Seeded, and stopped before the server answered: nothing was queued for the demo site.
      await (await start()).close();

      // Started again without job handlers, twice over: the demo site is queued once.
      const idle = await start(false);
      try {
        await idle.resumePipeline();
        await idle.resumePipeline();
        expect(await jobsOf(idle.deps.db, "website-discover")).toBe(1);
        expect(await jobsOf(idle.deps.db, "demo-conversations")).toBe(1);
      } finally {
        await idle.close();
      }

      const next = await start();
      try {
        await next.resumePipeline();
        const [demo] = await next.deps.db.select().from(websites).where(eq(websites.url, site.url));
        await until(
          "every demo page indexed",
          async () => {
            const rows = await next.deps.db.select().from(urls).where(eq(urls.websiteId, demo.id));
            return rows.length === 6 && rows.every((row) => row.status === "indexed");
          },
          60_000,
        );
        await until(
          "the demo's visitors to chat",
          async () =>
            (await next.deps.db.select().from(conversations).where(eq(conversations.appId, demo.appId))).length === 3,
          60_000,
        );
        expect(await jobsOf(next.deps.db, "demo-conversations")).toBeGreaterThanOrEqual(1);
      } finally {
        await next.close();
      }
    } finally {
      await database.drop();
      await site.close();
      rmSync(storageDir, { recursive: true, force: true });
    }
  }, 180_000);
});
