import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, knowledgeFiles } from "../db/schema";
import { startDatabaseRelay, startTestHostOverRelay } from "../../tests/support/database-relay";
import { makePdf } from "../../tests/support/pdf";
import { until } from "../../tests/support/wait";

// The database goes away while a worker indexes an uploaded file: its connections end, through a
// relay the test takes down (tests/support/database-relay.ts). Real PostgreSQL only.
const postgres = !!process.env.TEST_DATABASE_URL;

let outage: Awaited<ReturnType<typeof startTestHostOverRelay>>;
let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
let appId: number;

beforeAll(async () => {
  if (!postgres) return;
  // A short lease: the worker's sweep runs every second.
  outage = await startTestHostOverRelay({ workerLeaseSeconds: 3 });
  relay = outage.relay;
  const [app] = await outage.host.deps.db
    .insert(clientApps)
    .values({ clientName: "File outage", urlCode: "file-outage" })
    .returning();
  appId = app.id;
}, 60_000);

afterAll(async () => {
  if (!postgres) return;
  await outage?.close();
});

/**
 * A stored PDF waiting for indexing, its job sent, and the write of its indexed outcome held in
 * flight by the stalled relay (the only statement that sets `page_count`).
 */
async function indexingHeld(name: string) {
  const { db, storage, jobs } = outage.host.deps;
  const storageKey = `apps/${appId}/files/outage/${name}`;
  await storage.put(storageKey, makePdf([[`What ${name} says about tuition and housing at Northfield.`]]));
  const [file] = await db
    .insert(knowledgeFiles)
    .values({ appId, fileName: name, uploadKey: `uploads/${appId}/${name}`, storageKey, status: "to_be_indexed" })
    .returning();
  relay.stallOn('"page_count" = ');
  await jobs.send("file-index", { fileId: file.id });
  await until("the file's write to be sent", async () => relay.stalled());
  return file.id;
}

const fileRow = async (fileId: number) =>
  (await outage.host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId)))[0];

/** Waits (up to 30 s) for the file to be done with; what it is then is for the test to say. */
const settled = (fileId: number) =>
  until(
    "the file to be done with",
    // The test's own reads go through the relay too: one the cut ends is tried again.
    async () => !/^(to_be_|sent_for_)/.test((await fileRow(fileId).catch(() => null))?.status ?? "sent_for_"),
    30_000,
  ).catch(() => {});

describe.skipIf(!postgres)("a database that goes away while a file is indexed", () => {
  it("indexes the file it had claimed once the database is back, without the worker restarting", async () => {
    const fileId = await indexingHeld("Handbook.pdf");
    // The write in flight fails, and so does every statement for two seconds.
    relay.down();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    relay.up();
    await settled(fileId);
    const file = await fileRow(fileId);
    expect([file.status, file.errorMessage, file.claimedBy]).toEqual(["indexed", null, null]);
    const stored = await outage.host.deps.db.select().from(chunks).where(eq(chunks.fileId, fileId));
    expect(stored.length).toBeGreaterThan(0);
  }, 60_000);

  it("indexes again a file whose write was cut, rather than failing it with an error of ours", async () => {
    const fileId = await indexingHeld("Prospectus.pdf");
    // The connections end and the database answers again at once (a restart, a failover).
    relay.cutConnections();
    await settled(fileId);
    const file = await fileRow(fileId);
    expect([file.status, file.errorMessage]).toEqual(["indexed", null]);
  }, 60_000);
});
