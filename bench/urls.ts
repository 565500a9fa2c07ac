/**
 * URL table figures at a million URLs in one client: the view-links drawer query (two statuses +
 * search + sort, with its count and status counts) and status_counts, on embedded PGlite (a data
 * folder) and on PostgreSQL when PG_BENCH_URL (or the local server) is reachable.
 *   npx tsx bench/urls.ts            BENCH_URLS=1000000 by default
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { UrlsQuery } from "@contract";
import { openDatabase, type DatabaseHandle } from "../api/db/client";
import { clientApps, websites } from "../api/db/schema";
import { listUrls, statusCounts } from "../api/knowledge/queries";

const TOTAL = Number(process.env.BENCH_URLS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return `p50 ${at(50).toFixed(1).padStart(6)} ms  p95 ${at(95).toFixed(1).padStart(6)} ms`;
}

async function time(run: () => Promise<unknown>) {
  const samples: number[] = [];
  await run(); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

async function load(handle: DatabaseHandle) {
  const [app] = await handle.db
    .insert(clientApps)
    .values({ clientName: "Bench University", urlCode: "bench" })
    .returning();
  const [big, small] = await handle.db
    .insert(websites)
    .values([
      { appId: app.id, url: "https://www.bench.edu/" },
      { appId: app.id, url: "https://library.bench.edu/" },
    ])
    .returning();
  const started = performance.now();
  const bigCount = Math.floor(TOTAL * 0.8);
  const statuses = `array['pending_review','indexed','indexed','indexed','failed_to_index','skipped','to_be_indexed','deleted']`;
  for (const [website, from, to, host] of [
    [big, 1, bigCount, "www"],
    [small, bigCount + 1, TOTAL, "library"],
  ] as const) {
    for (let start = from; start <= to; start += 100_000) {
      const end = Math.min(to, start + 99_999);
      await handle.db.execute(
        sql.raw(`
        insert into urls (app_id, website_id, url, title, status, sitemap_refresh_review_status)
        select ${app.id}, ${website.id},
          'https://${host}.bench.edu/' || (array['programs','admissions','news','events','research','library','about','students'])[1 + i % 8] || '/page-' || i,
          'Page ' || i || ' of ' || (array['Nursing','Biology','History','Physics','Finance','Music','Law','Design'])[1 + (i / 7) % 8],
          (${statuses})[1 + (i * 7) % 8],
          case when i % 50 = 0 then 'new' when i % 97 = 0 then 'changed' else null end
        from generate_series(${start}, ${end}) as i`),
      );
    }
  }
  await handle.db.execute(sql`analyze urls`);
  console.log(
    `  loaded ${TOTAL.toLocaleString("en-US")} URLs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { appId: app.id, bigId: big.id };
}

async function measure(label: string, handle: DatabaseHandle) {
  console.log(`${label}`);
  const { appId, bigId } = await load(handle);
  const deps = { db: handle.db };
  const query = (q: Record<string, unknown>) => UrlsQuery.parse(q);
  const cases: [string, Record<string, unknown>][] = [
    [
      "drawer: 2 statuses + search + sort by url",
      { status: "indexed,failed_to_index", search: "nursing", order_by: "url", page_size: 100 },
    ],
    [
      "drawer: 2 statuses + search 'admissions' + status desc",
      { status: "indexed,failed_to_index", search: "admissions", order_by: "status", order: "desc", page_size: 100 },
    ],
    ["drawer: review filter new,changed", { sitemap_refresh_review_status: "new,changed", page_size: 100 }],
    ["drawer: first page, no filter", { page_size: 100 }],
  ];
  for (const [name, q] of cases)
    console.log(`  ${name.padEnd(52)} ${await time(() => listUrls(appId, bigId, query(q), deps))}`);
  console.log(
    `  ${"unified: 2 statuses + search, all websites".padEnd(52)} ${await time(() => listUrls(appId, null, query(cases[0][1]), deps))}`,
  );
  console.log(`  ${"status_counts (whole client)".padEnd(52)} ${await time(() => statusCounts(appId, deps))}`);
}

const dir = mkdtempSync(path.join(tmpdir(), "console-bench-urls-"));
try {
  const pglite = await openDatabase({ dir });
  await measure("PGlite (data folder)", pglite);
  await pglite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const serverUrl = process.env.PG_BENCH_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
try {
  await admin.connect();
} catch {
  console.log("PostgreSQL not reachable: skipped");
  process.exit(0);
}
const name = `console_bench_${randomBytes(4).toString("hex")}`;
await admin.query(`create database ${name}`);
try {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const postgres = await openDatabase({ url: url.toString() });
  await measure("PostgreSQL", postgres);
  await postgres.close();
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
