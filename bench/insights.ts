/**
 * The Business Insights API over 1,000,000 stored messages (100,000 conversations of five
 * questions and five answers over 90 days, three trigger points, both environments, 2,000
 * distinct questions, 200 cited pages, a fifth of the visitors with a profile): the time to build
 * the rollups from the messages (a backfill), then the dashboard's API time through HTTP for the
 * default 30 days, 90 days, one trigger point and one environment, and a page of the profile store.
 *   npx tsx bench/insights.ts        on a throw-away database of the local PostgreSQL (BENCH_PG to choose another)
 *   BENCH_MESSAGES=100000 ...        a smaller store
 * The inventory holds BENCH_URLS addresses (100,000 by default) besides the 200 cited pages, a
 * quarter of them under each of four sections whose names are words of the unanswered questions:
 * the dashboard's closest inventory pages must not read them all for each question.
 */
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { clientApps } from "../api/db/schema";
import { rebuildInsightDays } from "../api/insights/rollups";
import { percentiles, servedApiHost, throwawayPostgres } from "./support";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const CONVERSATIONS = Math.ceil(MESSAGES / 10);
const URLS = Number(process.env.BENCH_URLS ?? 100_000);
const DAYS = 90;

const postgres = await throwawayPostgres(process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres");
if (!postgres) {
  console.log("PostgreSQL not reachable: the insights benchmark needs one (BENCH_PG)");
  process.exit(0);
}
const { host, base, token, close } = await servedApiHost(postgres.url);
const { db } = host.deps;

try {
  const [app] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const loadStarted = performance.now();
  await db.execute(
    sql.raw(`
    insert into conversations (id, app_id, environment, trigger_point, started_at, last_message_at, question_count)
    select md5('c' || i)::uuid, ${app.id}, case when i % 4 = 0 then 'prod' else 'stage' end,
      (array['', 'admissions', 'studentsuccess'])[1 + i % 3],
      now() - make_interval(days => i % ${DAYS}, secs => i % 86000), now() - make_interval(days => i % ${DAYS}), 5
    from generate_series(1, ${CONVERSATIONS}) as i`),
  );
  await db.execute(
    sql.raw(`
    insert into messages (conversation_id, app_id, role, text, outcome, sources, created_at)
    select md5('c' || i)::uuid, ${app.id}, case when m % 2 = 0 then 'user' else 'assistant' end,
      case when m % 2 = 0 then 'What about question number ' || ((i * 7 + m) % 2000) || '?' else 'An answer.' end,
      case when m % 2 = 1 then (array['answered', 'answered', 'answered', 'fallback', 'canned', 'disclaimed'])[1 + (i + m) % 6] end,
      case when m % 2 = 1 and (i + m) % 6 < 3 then jsonb_build_array(jsonb_build_object('title', 'Page ' || ((i + m) % 200), 'url', 'https://www.northfield.edu/page-' || ((i + m) % 200))) else '[]'::jsonb end,
      now() - make_interval(days => i % ${DAYS}, secs => (i % 86000) - m)
    from generate_series(1, ${CONVERSATIONS}) as i, generate_series(0, 9) as m`),
  );
  await db.execute(
    sql.raw(`
    with w as (insert into websites (app_id, url, site_map, status) values (${app.id}, 'https://www.northfield.edu/', 'few_urls', 'sitemap_generated') returning id)
    insert into urls (app_id, website_id, url, title, status)
    select ${app.id}, w.id, 'https://www.northfield.edu/page-' || p, 'Page ' || p, 'indexed' from w, generate_series(0, 199) as p`),
  );
  await db.execute(
    sql.raw(`
    with w as (insert into websites (app_id, url, site_map, status) values (${app.id}, 'https://archive.northfield.edu/', 'few_urls', 'sitemap_generated') returning id)
    insert into urls (app_id, website_id, url, title, status)
    select ${app.id}, w.id, 'https://archive.northfield.edu/' || (array['questions', 'numbers', 'news', 'about'])[1 + p % 4] || '/item-' || p,
      'Item ' || p, (array['indexed', 'skipped', 'to_be_indexed'])[1 + p % 3]
    from w, generate_series(1, ${URLS}) as p`),
  );
  await db.execute(
    sql.raw(`
    insert into visitor_profiles (conversation_id, app_id, values, field_score, is_lead)
    select md5('c' || i)::uuid, ${app.id},
      case when i % 10 = 0 then jsonb_build_object('email', 'visitor' || i || '@example.com', 'first_name', 'Visitor') else jsonb_build_object('intended_major', 'Biology') end,
      case when i % 10 = 0 then 40 else 8 end, i % 10 = 0
    from generate_series(1, ${CONVERSATIONS}) as i where i % 5 = 0`),
  );
  await db.execute(sql`analyze`);
  console.log(
    `stored ${MESSAGES.toLocaleString("en-US")} messages in ${CONVERSATIONS.toLocaleString("en-US")} conversations in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  const days = Array.from({ length: DAYS + 1 }, (_, i) =>
    new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10),
  );
  const rollupStarted = performance.now();
  await rebuildInsightDays(app.id, days, db);
  await db.execute(sql`analyze`);
  const [{ n }] = (
    (await db.execute(
      sql`select (select count(*) from insight_days) + (select count(*) from insight_questions) + (select count(*) from insight_sources) as n`,
    )) as unknown as { rows: { n: number }[] }
  ).rows;
  console.log(
    `built the rollups of ${DAYS} days from the messages in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s (${Number(n).toLocaleString("en-US")} rollup rows)`,
  );

  const measure = async (label: string, query: string) => {
    const get = async () => {
      const response = await fetch(`${base}/v1/apps/${app.id}${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`${query}: ${response.status} ${await response.text()}`);
      await response.json();
    };
    for (let i = 0; i < 3; i++) await get();
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      await get();
      samples.push(performance.now() - started);
    }
    const { p50, p95 } = percentiles(samples);
    console.log(`${label.padEnd(44)} p50 ${p50} ms  p95 ${p95} ms`);
  };
  await measure("dashboard, last 30 days, all", "/insights");
  await measure("dashboard, 90 days, all", `/insights?from=${days[DAYS - 1]}&to=${days[0]}`);
  await measure("dashboard, 30 days, one trigger point", "/insights?trigger_point=admissions");
  await measure("dashboard, 30 days, production", "/insights?environment=prod");
  await measure("profile store, first page of 25", "/user_profiles");
  await measure("profile store, search", "/user_profiles?search=visitor1234");
} finally {
  await close();
  await postgres.drop();
}
