/**
 * The Conversations CSV's reads over 100,000 conversations of one client (over 90 days, a few
 * questions each): the list calls the export makes, in pages of 1,000 up to 100,000 rows and one
 * page past them, read by page number (offset, each page counted) and by keyset (after/next_after,
 * only the first page counted), under each sort.
 *   npx tsx bench/conversations-export.ts     on a throw-away database of the local PostgreSQL (BENCH_PG to choose another)
 *   BENCH_CONVERSATIONS=20000 ...             a smaller store
 */
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { CONVERSATION_SORTS, type ConversationList } from "../contract";
import { clientApps } from "../api/db/schema";
import { servedApiHost, throwawayPostgres } from "./support";

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const PAGE_SIZE = 1000;
const MAX_ROWS = 100_000;

const postgres = await throwawayPostgres(process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres");
if (!postgres) {
  console.log("PostgreSQL not reachable: the export benchmark needs one (BENCH_PG)");
  process.exit(0);
}
const { host, base, token, close } = await servedApiHost(postgres.url);
try {
  const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  await host.deps.db.execute(sql`
    insert into conversations (id, app_id, environment, trigger_point, started_at, last_message_at, question_count, last_question)
    select gen_random_uuid(), ${app.id}, case when i % 3 = 0 then 'stage' else 'prod' end, '',
      now() - (i * interval '77 seconds') - (i % 997) * interval '1 microsecond', now(), i % 6, 'Question ' || i
    from generate_series(1, ${CONVERSATIONS}) as i`);
  await host.deps.db.execute(sql`analyze conversations`);

  const page = async (query: string) => {
    const response = await fetch(`${base}/v1/apps/${app.id}/conversations?page_size=${PAGE_SIZE}&${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return (await response.json()) as ConversationList;
  };
  const byOffset = async (sort: string) => {
    const times: number[] = [];
    let rows = 0;
    for (let n = 1, more = true; more && rows <= MAX_ROWS; n++) {
      const started = performance.now();
      const { data } = await page(`sort=${sort}&page=${n}`);
      times.push(performance.now() - started);
      rows += data.length;
      more = data.length === PAGE_SIZE;
    }
    return { rows, times };
  };
  const byKeyset = async (sort: string) => {
    const times: number[] = [];
    let rows = 0;
    let after: string | null = null;
    do {
      const started = performance.now();
      const answer: ConversationList = await page(`sort=${sort}${after ? `&after=${after}` : ""}`);
      times.push(performance.now() - started);
      rows += answer.data.length;
      after = answer.next_after;
    } while (after && rows < MAX_ROWS);
    return { rows, times };
  };
  const said = ({ rows, times }: { rows: number; times: number[] }) =>
    `${(times.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s for ${rows.toLocaleString("en")} rows in ${times.length} pages ` +
    `(page 1: ${times[0].toFixed(0)} ms, last: ${times.at(-1)!.toFixed(0)} ms)`;
  console.log(
    `Conversations CSV reads over ${CONVERSATIONS.toLocaleString("en")} conversations, pages of ${PAGE_SIZE}:`,
  );
  for (const sort of CONVERSATION_SORTS) {
    console.log(`  ${sort.padEnd(15)} by page number: ${said(await byOffset(sort))}`);
    console.log(`  ${sort.padEnd(15)} by keyset:      ${said(await byKeyset(sort))}`);
  }
} finally {
  await close();
  await postgres.drop();
}
