/**
 * The assistant's answer latency over a knowledge store of 50,000 chunks (one client, 5,000 pages),
 * through the real HTTP endpoint (embed key check, controls, retrieval with penalties, quality
 * check, extractive answer, conversation storage), on embedded PGlite; and the widget's size.
 *   npx tsx bench/chat.ts            BENCH_CHUNKS=50000, BENCH_ROUNDS=100 by default
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/chat.ts   the same on a throw-away PostgreSQL database
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { eq, sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import type { DatabaseOptions } from "../api/db/client";
import { embedKeyFor } from "../api/chat/keys";
import { clientApps, finetunings, websites } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { relexemeStalePassages } from "../api/knowledge/index/relexeme";
import { percentiles, throwawayPostgres } from "./support";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const PAGES = Math.ceil(CHUNKS / 10);

/**
 * A fresh database on BENCH_PG's server, or embedded PGlite in a new folder, as the console keeps it
 * (server.ts): in memory, each file's growth would be a copy of it, which the console never pays.
 */
async function benchDatabase(): Promise<{ options: DatabaseOptions; label: string; drop: () => Promise<void> }> {
  if (!process.env.BENCH_PG) {
    const dir = mkdtempSync(path.join(tmpdir(), "console-bench-chat-db-"));
    return {
      options: { dir },
      label: "embedded PGlite",
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const postgres = await throwawayPostgres(process.env.BENCH_PG);
  if (!postgres) throw new Error(`No PostgreSQL at ${process.env.BENCH_PG}`);
  return { options: { url: postgres.url }, label: "PostgreSQL", drop: postgres.drop };
}

const database = await benchDatabase();
const storageDir = mkdtempSync(path.join(tmpdir(), "console-bench-chat-"));
const host = await startApiHost({
  database: database.options,
  storageDir,
  config: { ...apiConfigFromEnv({ CHAT_RATE_LIMIT_PER_MINUTE: "1000000" }, { sessionSecrets: ["x"], jwtSecret: "y" }) },
  log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
});
const server = serve({ fetch: host.api.fetch, port: 0, hostname: "127.0.0.1" });
if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { db } = host.deps;

try {
  const [app] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: "https://www.bench.edu/", siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  const loadStarted = performance.now();
  await db.execute(
    sql.raw(`
    insert into urls (app_id, website_id, url, title, status)
    select ${app.id}, ${website.id}, 'https://www.bench.edu/' || (array['programs','admissions','tuition','housing','research'])[1 + i % 5] || '/page-' || i,
      'Page ' || i, 'indexed'
    from generate_series(1, ${PAGES}) as i`),
  );
  const subjects = "nursing biology history physics finance music law design chemistry economics".split(" ");
  const topics = "tuition deadline scholarship housing advising internship laboratory library semester credits".split(
    " ",
  );
  await db.execute(
    sql.raw(`
    insert into chunks (app_id, url_id, position, heading_path, text)
    select u.app_id, u.id, p, '[]'::jsonb,
      'The ' || (array[${subjects.map((s) => `'${s}'`).join(",")}])[1 + (u.id + p) % 10] || ' program covers ' ||
      (array[${topics.map((t) => `'${t}'`).join(",")}])[1 + (u.id * 3 + p) % 10] || ' and ' ||
      (array[${topics.map((t) => `'${t}'`).join(",")}])[1 + (u.id * 7 + p) % 10] || ' for students in year ' || (1 + p % 4) ||
      '. Details change every semester; contact the office of ' || (array[${subjects.map((s) => `'${s}'`).join(",")}])[1 + u.id % 10] || ' for more.'
    from urls u, generate_series(0, 9) as p where u.website_id = ${website.id}`),
  );
  // Rows written without lexemes get Postgres' own and are marked to be made again by ours (migration
  // 0055): made now, as the scheduled recovery would, so the questions meet the filler as the pipeline
  // would have stored it, and no recovery run rewrites 50,000 rows while the answers are timed.
  await relexemeStalePassages(db, Number.POSITIVE_INFINITY);
  // As the pipeline leaves a store it wrote (api/db/maintenance.ts): vacuumed, which also merges the
  // full-text indexes' pending entries that every search would otherwise scan, and analysed.
  await db.execute(sql`vacuum analyze chunks`);
  console.log(
    `loaded ${CHUNKS} chunks on ${PAGES} pages in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  const key = await embedKeyFor(app.id, "stage", host.deps);
  const questions = subjects.flatMap((s) => topics.map((t) => `What is the ${t} for the ${s} program?`));
  const ask = async (message: string) => {
    const response = await fetch(`${base}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, trigger_point: "admissions", message }),
    });
    await response.text();
  };
  for (const q of questions.slice(0, 5)) await ask(q); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await ask(questions[i % questions.length]);
    samples.push(performance.now() - started);
  }
  const { p50, p95 } = percentiles(samples);
  console.log(
    `chat answer over ${CHUNKS} chunks on ${database.label} (extractive, ${ROUNDS} questions): p50 ${p50} ms  p95 ${p95} ms`,
  );

  // An operator's Exclude rule over a fifth of the pages: every answer's trace also names the pages
  // the rule left out that hold the question's words (search.ts, leftOutBy). Its worst case is a
  // word few pages hold, so each page the rule matches is looked at, and one page holds this one.
  await db.execute(
    sql.raw(`
    insert into chunks (app_id, url_id, position, heading_path, text)
    select app_id, id, 10, '[]'::jsonb, 'The quokka exchange sends students to Rottnest Island every spring.'
    from urls where website_id = ${website.id} and url like '%/programs/%' order by id limit 1`),
  );
  await relexemeStalePassages(db, Number.POSITIVE_INFINITY);
  await db.execute(sql`vacuum analyze chunks`);
  await db.insert(finetunings).values({
    appId: app.id,
    finetuningType: "url_pattern",
    pattern: "*/research/*",
    penalty: 1,
  });
  for (const [label, asked] of [
    ["the same questions", questions],
    ["a word one page holds", subjects.map((s) => `Is there a quokka exchange for ${s} students?`)],
  ] as const) {
    const excluded: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      await ask(asked[i % asked.length]);
      excluded.push(performance.now() - started);
    }
    const figures = percentiles(excluded);
    console.log(
      `  with an Exclude rule over a fifth of the pages, ${label}: p50 ${figures.p50} ms  p95 ${figures.p95} ms`,
    );
  }
  const widget = readFileSync(path.resolve("public/widget.js"));
  console.log(
    `widget.js ${(widget.length / 1024).toFixed(1)} KB, ${(gzipSync(widget).length / 1024).toFixed(1)} KB gzipped`,
  );
} finally {
  server.close();
  await host.close();
  await database.drop();
  rmSync(storageDir, { recursive: true, force: true });
}
