import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiConfigFromEnv } from "../config";
import { urls } from "../db/schema";
import { startApiHost } from "../host";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { quietLog } from "../../tests/support/test-host";

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let dataDir: string;
beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 700 });
  dataDir = mkdtempSync(path.join(tmpdir(), "console-crash-"));
});
afterAll(async () => {
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("resumes indexing after the process is killed mid-run", async () => {
  // 1. A server process indexes slow pages and is killed (SIGKILL) while URLs are in flight.
  // node itself with tsx as a loader (not the tsx wrapper), so SIGKILL reaches the process that works.
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/crashable-host.ts", dataDir, site.base], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("indexing")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the child exited early (${code})`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;

  // 2. A new process opens the same database and picks the work up.
  const host = await startApiHost({
    database: { dir: path.join(dataDir, "pglite") },
    storageDir: path.join(dataDir, "files"),
    config: apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: "4" }, { sessionSecrets: ["s"], jwtSecret: "j" }),
    seed: false,
    log: quietLog,
  });
  try {
    const statuses = async () =>
      (await host.deps.db.select({ status: urls.status, n: sql<number>`count(*)::int` }).from(urls).groupBy(urls.status))
        .map((r) => `${r.status}:${r.n}`);
    expect((await statuses()).some((s) => s.startsWith("sent_for_indexing") || s.startsWith("to_be_indexed"))).toBe(true);
    await host.resumePipeline();
    const deadline = Date.now() + 30_000;
    while ((await statuses()).join() !== "indexed:8") {
      if (Date.now() > deadline) throw new Error(`not resumed: ${(await statuses()).join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await host.close();
  }
}, 90_000);
