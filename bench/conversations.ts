/**
 * The Conversations API over 1,000,000 stored messages (100,000 conversations of five questions
 * and five answers over 90 days, three trigger points, both environments; every answer with a
 * full trace of ten 300-character passages; 3 % of answers rated up, 2 % down, a fifth of the
 * visitors with a profile): the list's API time through HTTP, unfiltered and under each filter,
 * a transcript, and marking an answer reviewed. Then what recording a trace adds to storing an
 * answer: building it, and the insert with it against the same insert without it.
 *   npx tsx bench/conversations.ts     on a throw-away database of the local PostgreSQL (BENCH_PG to choose another)
 *   BENCH_MESSAGES=100000 ...          a smaller store
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { storeAnswer } from "../api/chat/store";
import type { ChatAnswer } from "../api/chat/chat-answer";
import { traceOf } from "../api/chat/trace";
import { clientApps } from "../api/db/schema";
import type { SearchHit } from "../api/knowledge/index/search";
import { percentiles, servedApiHost, throwawayPostgres } from "./support";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const CONVERSATIONS = Math.ceil(MESSAGES / 10);
const DAYS = 90;

// BENCH_KEEP=<name> keeps the loaded store in that database for the next run, which then skips loading.
const postgres = process.env.BENCH_KEEP
  ? await keptPostgres(process.env.BENCH_KEEP)
  : await throwawayPostgres(process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres");
if (!postgres) {
  console.log("PostgreSQL not reachable: the conversations benchmark needs one (BENCH_PG)");
  process.exit(0);
}
const { host, base, token, close } = await servedApiHost(postgres.url);
const { db } = host.deps;

/** Ten passages of 300 characters that do not compress away (each its own digests), as a trace holds them. */
const TRACE_SQL = `jsonb_build_object('threshold', 0.4, 'top_score', 0.8, 'model', false, 'controls', '[]'::jsonb, 'passages', (
  select jsonb_agg(jsonb_build_object(
    'url', 'https://www.northfield.edu/page-' || ((i + k) % 200), 'file_name', null, 'title', 'Page ' || ((i + k) % 200),
    'heading_path', jsonb_build_array('Admissions', 'Dates'), 'indexed_at', '2026-03-02T10:00:00.000Z', 'score', round((0.9 - k * 0.05)::numeric, 3),
    'rank', k + 1, 'penalties', '[]'::jsonb, 'passed', k < 4, 'used', k < 2,
    'text', left((select string_agg(md5(i || '-' || m || '-' || k || '-' || d), ' ') from generate_series(1, 10) as d), 300)))
  from generate_series(0, 9) as k))`;

try {
  const [app] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const [{ already }] = (
    (await db.execute(sql`select count(*)::int as already from conversations`)) as unknown as {
      rows: { already: number }[];
    }
  ).rows;
  if (!already) await load(app.id);

  const timed = async (label: string, request: (round: number) => Promise<Response>) => {
    const once = async (round: number) => {
      const response = await request(round);
      if (!response.ok) throw new Error(`${label}: ${response.status} ${await response.text()}`);
      await response.json();
    };
    for (let i = 0; i < 3; i++) await once(i);
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      await once(i);
      samples.push(performance.now() - started);
    }
    const { p50, p95 } = percentiles(samples);
    console.log(`${label.padEnd(52)} p50 ${p50} ms  p95 ${p95} ms`);
  };
  const get = (query: string) => () =>
    fetch(`${base}/v1/apps/${app.id}${query}`, { headers: { authorization: `Bearer ${token}` } });
  const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  await timed("list, first page of 25, all", get("/conversations"));
  await timed("list, one trigger point", get("/conversations?trigger_point=admissions"));
  await timed("list, production, fallback", get("/conversations?environment=prod&outcome=fallback"));
  await timed("list, rated down and not reviewed", get("/conversations?rating=down&reviewed=false"));
  await timed("list, leads", get("/conversations?lead=true"));
  await timed("list, the last 7 days", get(`/conversations?from=${week}`));
  await timed("list, most questions first", get("/conversations?sort=most_questions"));
  await timed("list, page 100 of 100", get("/conversations?page=100&page_size=100"));
  await timed("list, search for a question's words", get("/conversations?search=number%201234%3F"));
  await timed("list, search for a word in every question", get("/conversations?search=question"));
  await timed("transcript of a conversation (5 traced answers)", (round) => {
    const id = ((round * 7919) % CONVERSATIONS) + 1;
    return fetch(`${base}/v1/apps/${app.id}/conversations/${md5Uuid(`c${id}`)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  });
  const answers = (
    (await db.execute(
      sql`select id, conversation_id from messages where role = 'assistant' and rating = 'down' limit ${ROUNDS + 3}`,
    )) as unknown as { rows: { id: number; conversation_id: string }[] }
  ).rows;
  await timed("mark an answer reviewed", (round) =>
    fetch(
      `${base}/v1/apps/${app.id}/conversations/${answers[round].conversation_id}/messages/${answers[round].id}/review`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ reviewed: true }),
      },
    ),
  );

  // What a trace adds to an answer: building it from twenty hits, and storing it.
  const hits: SearchHit[] = Array.from({ length: 20 }, (_, k) => ({
    chunkId: k,
    urlId: k,
    fileId: null,
    url: `https://www.northfield.edu/page-${k}`,
    fileName: null,
    title: `Page ${k}`,
    position: 0,
    headingPath: ["Admissions", "Dates"],
    text: "Applications for fall close on January 15. ".repeat(20),
    indexedAt: "2026-03-02T10:00:00.000Z",
    baseScore: 0.9 - k * 0.04,
    bm25: 10 - k,
    score: 0.9 - k * 0.04,
    relevance: 10 - k,
    pageShare: 1,
    near: 0.5,
    held: [],
    penalties: [],
  }));
  const built = () =>
    traceOf({
      hits,
      threshold: 0.4,
      confidence: 0.6,
      drawnFrom: hits.slice(0, 1),
      listed: hits.slice(0, 2),
      controls: [],
      model: false,
    });
  const buildSamples: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    built();
    buildSamples.push(performance.now() - started);
  }
  const trace = built();
  const answer: ChatAnswer = {
    text: "Applications for fall close on January 15.",
    outcome: "answered",
    sources: [{ title: "Page 0", url: "https://www.northfield.edu/page-0" }],
    disclaimer: null,
    programs: [],
    citedPages: [{ title: "Page 0", url: "https://www.northfield.edu/page-0" }],
    closest: [],
    passages: [],
    context: [],
    trace,
  };
  const without = { ...answer, trace: null as unknown as ChatAnswer["trace"] };
  const stored = {
    conversationId: md5Uuid("c1"),
    appId: app.id,
    environment: "stage",
    triggerPoint: "admissions",
    question: "When do applications close?",
  };
  const withTrace: number[] = [];
  const withoutTrace: number[] = [];
  for (let i = 0; i < 400; i++) {
    // Alternated, so the machine's drift falls on both alike.
    for (const [chosen, samples] of i % 2
      ? ([
          [answer, withTrace],
          [without, withoutTrace],
        ] as const)
      : ([
          [without, withoutTrace],
          [answer, withTrace],
        ] as const)) {
      const started = performance.now();
      await storeAnswer(stored, chosen, host.deps);
      samples.push(performance.now() - started);
    }
  }
  const buildMean = buildSamples.reduce((sum, ms) => sum + ms, 0) / buildSamples.length;
  const a = percentiles(withTrace.slice(20));
  const b = percentiles(withoutTrace.slice(20));
  const mean = (samples: number[]) =>
    (samples.slice(20).reduce((sum, ms) => sum + ms, 0) / (samples.length - 20)).toFixed(2);
  console.log(
    `trace of 10 passages: ${Buffer.byteLength(JSON.stringify(trace))} bytes; building it ${(buildMean * 1000).toFixed(0)} µs on average`,
  );
  console.log(
    `storing an answer with its trace p50 ${a.p50} ms  p95 ${a.p95} ms; without p50 ${b.p50} ms  p95 ${b.p95} ms; means ${mean(withTrace)} against ${mean(withoutTrace)} ms`,
  );
} finally {
  await close();
  await postgres.drop();
}

/** A conversation id from its number, a version 4 UUID as the chat call makes (the API refuses others): the digest with its version and variant set. */
function uuidOf(textSql: string) {
  return `overlay(overlay(md5(${textSql}) placing '4' from 13) placing '8' from 17)::uuid`;
}

function md5Uuid(text: string) {
  const hex = createHash("md5")
    .update(text)
    .digest("hex")
    .replace(/^(.{12})./, "$14")
    .replace(/^(.{16})./, "$18");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The store: conversations, their messages with traces and ratings, their list columns, and visitors' profiles. */
async function load(appId: number) {
  const loadStarted = performance.now();
  await db.execute(
    sql.raw(`
    insert into conversations (id, app_id, environment, trigger_point, started_at, last_message_at, question_count, last_question)
    select ${uuidOf("'c' || i")}, ${appId}, case when i % 4 = 0 then 'prod' else 'stage' end,
      (array['', 'admissions', 'studentsuccess'])[1 + i % 3],
      now() - make_interval(days => i % ${DAYS}, secs => i % 86000), now() - make_interval(days => i % ${DAYS}), 5,
      'What about question number ' || ((i * 7 + 8) % 2000) || '?'
    from generate_series(1, ${CONVERSATIONS}) as i`),
  );
  await db.execute(
    sql.raw(`
    insert into messages (conversation_id, app_id, role, text, outcome, sources, created_at, trace, rating, rated_at)
    select ${uuidOf("'c' || i")}, ${appId}, case when m % 2 = 0 then 'user' else 'assistant' end,
      case when m % 2 = 0 then 'What about question number ' || ((i * 7 + m) % 2000) || '?' else 'An answer about ' || ((i * 7 + m) % 2000) || '.' end,
      case when m % 2 = 1 then (array['answered', 'answered', 'answered', 'fallback', 'canned', 'disclaimed'])[1 + (i + m) % 6] end,
      case when m % 2 = 1 then jsonb_build_array(jsonb_build_object('title', 'Page ' || ((i + m) % 200), 'url', 'https://www.northfield.edu/page-' || ((i + m) % 200))) else '[]'::jsonb end,
      now() - make_interval(days => i % ${DAYS}, secs => (i % 86000) - m),
      case when m % 2 = 1 then ${TRACE_SQL} end,
      case when m % 2 = 1 and (i + m) % 100 < 3 then 'up' when m % 2 = 1 and (i + m) % 100 < 5 then 'down' end,
      case when m % 2 = 1 and (i + m) % 100 < 5 then now() - make_interval(days => i % ${DAYS}) end
    from generate_series(1, ${CONVERSATIONS}) as i, generate_series(0, 9) as m`),
  );
  await db.execute(
    sql.raw(`
    update conversations c set answered = s.answered, fallback = s.fallback, canned = s.canned, disclaimed = s.disclaimed,
      rated_up = s.up, rated_down = s.down, down_unreviewed = s.down
    from (select conversation_id, count(*) filter (where outcome = 'answered') as answered, count(*) filter (where outcome = 'fallback') as fallback,
        count(*) filter (where outcome = 'canned') as canned, count(*) filter (where outcome = 'disclaimed') as disclaimed,
        count(*) filter (where rating = 'up') as up, count(*) filter (where rating = 'down') as down
      from messages group by conversation_id) s
    where s.conversation_id = c.id`),
  );
  await db.execute(
    sql.raw(`
    insert into visitor_profiles (conversation_id, app_id, values, field_score, is_lead)
    select ${uuidOf("'c' || i")}, ${appId},
      case when i % 10 = 0 then jsonb_build_object('email', 'visitor' || i || '@example.com') else jsonb_build_object('intended_major', 'Biology') end,
      case when i % 10 = 0 then 40 else 8 end, i % 10 = 0
    from generate_series(1, ${CONVERSATIONS}) as i where i % 5 = 0`),
  );
  await db.execute(sql`vacuum analyze`);
  const [{ size }] = (
    (await db.execute(sql`select pg_size_pretty(pg_total_relation_size('messages')) as size`)) as unknown as {
      rows: { size: string }[];
    }
  ).rows;
  console.log(
    `stored ${MESSAGES.toLocaleString("en-US")} messages (${size} with their traces) in ${CONVERSATIONS.toLocaleString("en-US")} conversations in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );
}

/** A database of the local PostgreSQL kept between runs (created when missing). */
async function keptPostgres(name: string) {
  const serverUrl = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
  if (!rowCount) await admin.query(`create database "${name.replace(/"/g, "")}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => {} };
}
