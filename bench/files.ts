/**
 * Uploaded PDFs end to end: presign, PUT over real HTTP on 127.0.0.1, complete, then the real
 * file-index jobs until every file is indexed; embedded PGlite, local storage.
 *   npx tsx bench/files.ts            BENCH_FILES=40 files of BENCH_PDF_PAGES=25 pages by default
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { serve } from "@hono/node-server";
import { eq, sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import { clientApps, knowledgeFiles } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { makePdf } from "../tests/support/pdf";

const FILES = Number(process.env.BENCH_FILES ?? 40);
const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 25);
const words = "admissions tuition campus nursing biology research library housing scholarship advising".split(" ");
const line = (i: number, k: number) =>
  Array.from({ length: 12 }, (_, w) => words[(i * 3 + k * 7 + w) % words.length]).join(" ");

const storageDir = mkdtempSync(path.join(tmpdir(), "console-bench-files-"));
const host = await startApiHost({
  database: {},
  storageDir,
  config: apiConfigFromEnv({}, { sessionSecrets: ["x"], jwtSecret: "y" }),
  log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
});
const server = serve({ fetch: host.api.fetch, port: 0, hostname: "127.0.0.1" });
if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { db } = host.deps;

try {
  const token = (
    (await (
      await fetch(`${base}/auth/dev`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@example.com" }),
      })
    ).json()) as { user_token: string }
  ).user_token;
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const [app] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const pdfs = Array.from({ length: FILES }, (_, f) =>
    makePdf(
      Array.from({ length: PAGES }, (_, p) => Array.from({ length: 30 }, (_, k) => line(f * PAGES + p, k))),
      { title: `Guide ${f}` },
    ),
  );
  const megabytes = pdfs.reduce((sum, pdf) => sum + pdf.length, 0) / 1024 / 1024;

  const started = performance.now();
  const presigned = (await (
    await fetch(`${base}/v1/files/presigned_urls?app_id=${app.id}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ file_names: pdfs.slice(0, 20).map((_, i) => `guide-${i}.pdf`) }),
    })
  ).json()) as { presigned_urls: { url: string; url_id: number; s3_path: string }[] };
  const more =
    FILES > 20
      ? ((await (
          await fetch(`${base}/v1/files/presigned_urls?app_id=${app.id}`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({ file_names: pdfs.slice(20).map((_, i) => `guide-${i + 20}.pdf`) }),
          })
        ).json()) as { presigned_urls: { url: string; url_id: number; s3_path: string }[] })
      : { presigned_urls: [] };
  const targets = [...presigned.presigned_urls, ...more.presigned_urls];
  await Promise.all(
    targets.map(async (target, i) => {
      const put = await fetch(`${base}${target.url}`, {
        method: "PUT",
        headers: { "content-type": "application/pdf" },
        body: new Uint8Array(pdfs[i]),
      });
      if (!put.ok) throw new Error(`PUT answered ${put.status}`);
      const done = await fetch(`${base}/v1/files/complete_upload`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url_id: target.url_id, s3_path: target.s3_path }),
      });
      if (!done.ok) throw new Error(`complete_upload answered ${done.status}`);
    }),
  );
  const uploaded = performance.now();
  for (;;) {
    const [{ left }] = await db
      .select({ left: sql<number>`count(*)::int` })
      .from(knowledgeFiles)
      .where(sql`${knowledgeFiles.status} in ('to_be_indexed', 'sent_for_indexing')`);
    if (Number(left) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const finished = performance.now();
  const [{ indexed }] = await db
    .select({ indexed: sql<number>`count(*)::int` })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.status, "indexed"));
  const [{ chunkCount }] = (
    (await db.execute(sql`select count(*)::int as "chunkCount" from chunks where file_id is not null`)) as unknown as {
      rows: { chunkCount: number }[];
    }
  ).rows;
  console.log(
    `uploaded ${FILES} PDFs (${megabytes.toFixed(1)} MB, ${FILES * PAGES} pages) through presign + PUT + complete in ${((uploaded - started) / 1000).toFixed(2)} s`,
  );
  console.log(
    `indexed ${indexed} files (${chunkCount} chunks) in ${((finished - uploaded) / 1000).toFixed(2)} s: ${((Number(indexed) * PAGES) / ((finished - uploaded) / 1000)).toFixed(0)} pages/s`,
  );
  console.log(`rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
} finally {
  server.close();
  await host.close();
  rmSync(storageDir, { recursive: true, force: true });
}
