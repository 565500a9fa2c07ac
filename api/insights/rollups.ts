import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { insightDays, insightQuestionMonths, insightQuestions, insightSources } from "../db/schema";
import type { Executor } from "../controls/scope";

export const DAY_MS = 86_400_000;

/** Today in UTC: the day rollups count in. */
export const utcToday = sql`(now() at time zone 'utc')::date`;

/** How repeats of a question are recognised: lower case, spaces collapsed, end punctuation dropped, 300 characters. */
export const questionKey = (text: SQL) =>
  sql`left(regexp_replace(regexp_replace(lower(btrim(${text})), '\\s+', ' ', 'g'), '[\\s?.!]+$', ''), 300)`;

/**
 * Recounts the rollups of some days of a client from its stored messages: after a person's data
 * is deleted (their questions must not linger in Top Questions), or to backfill. The days are UTC
 * dates (YYYY-MM-DD).
 */
export async function rebuildInsightDays(appId: number, days: string[], db: Executor) {
  if (!days.length) return;
  await db.transaction(async (tx) => {
    for (const table of [insightDays, insightQuestions, insightSources]) {
      await tx.delete(table).where(and(eq(table.appId, appId), inArray(table.day, days)));
    }
    const dayList = sql.join(
      days.map((d) => sql`${d}::date`),
      sql`, `,
    );
    // Each answer with the question it answered (the visitor's message just before it, as the chat counted it).
    const answers = sql`
      select m.conversation_id, c.trigger_point, c.environment, (m.created_at at time zone 'utc')::date as day,
        m.outcome, m.sources, m.closest, m.id, m.trace->>'fallback_reason' as fallback_reason, m.trace->'parts' as parts,
        m.trace->'key_words' as key_words,
        coalesce(jsonb_array_length(m.trace->'left_out'->'rules'), 0) > 0 as left_out,
        m.trace->'files_not_tagged' as files_not_tagged,
        (select coalesce(q.question_part, q.text) from messages q where q.conversation_id = m.conversation_id and q.role = 'user' and q.id < m.id order by q.id desc limit 1) as question
      from messages m join conversations c on c.id = m.conversation_id
      where m.app_id = ${appId} and m.role = 'assistant' and (m.created_at at time zone 'utc')::date in (${dayList})`;
    await tx.execute(sql`
      insert into insight_days (app_id, trigger_point, environment, day, conversations, questions, answered, fallback, canned, disclaimed, small_talk)
      select ${appId}, trigger_point, environment, day, sum(conversations), sum(questions), sum(answered), sum(fallback), sum(canned), sum(disclaimed), sum(small_talk)
      from (
        select c.trigger_point, c.environment, (c.started_at at time zone 'utc')::date as day, 1 as conversations, 0 as questions,
          0 as answered, 0 as fallback, 0 as canned, 0 as disclaimed, 0 as small_talk
        from conversations c where c.app_id = ${appId} and (c.started_at at time zone 'utc')::date in (${dayList})
        union all
        -- A visitor's message is a question unless it was answered as small talk.
        select c.trigger_point, c.environment, (m.created_at at time zone 'utc')::date, 0, 1, 0, 0, 0, 0, 0
        from messages m join conversations c on c.id = m.conversation_id
        where m.app_id = ${appId} and m.role = 'user' and (m.created_at at time zone 'utc')::date in (${dayList})
          and coalesce((select a.outcome from messages a where a.conversation_id = m.conversation_id and a.id > m.id order by a.id limit 1), '') <> 'small_talk'
        union all
        select trigger_point, environment, day, 0, 0, (outcome = 'answered')::int, (outcome = 'fallback')::int, (outcome = 'canned')::int,
          (outcome = 'disclaimed')::int, (outcome = 'small_talk')::int
        from (${answers}) a
      ) parts
      group by trigger_point, environment, day`);
    // What each answer's message asked: the question, or each of its several questions with its own
    // outcome, reason and closest passages (the chat's rule: questionsAskedOf in api/chat/store.ts).
    const asks = sql`
      select a.trigger_point, a.environment, a.day, a.id, a.left_out,
        coalesce(p.part->>'question', a.question) as question,
        coalesce(p.part->>'outcome', a.outcome) as outcome,
        case when p.part is null then a.fallback_reason else p.part->>'fallback_reason' end as fallback_reason,
        -- The files its search left out as not tagged for the environment (questionsAskedOf in api/chat/store.ts).
        coalesce(case when p.part is null then a.files_not_tagged else p.part->'files_not_tagged' end, '[]'::jsonb) as files_not_tagged,
        case when p.part is null then a.closest
          else coalesce((select jsonb_agg(c - 'part') from jsonb_array_elements(a.closest) c where (c->>'part')::int = p.number), '[]'::jsonb)
        end as closest,
        -- Its own key words no passage held, weightiest first (lackedWordsOf in api/chat/store.ts).
        coalesce((
          select jsonb_agg(k->>'word' order by n)
          from jsonb_array_elements(case when jsonb_typeof(a.key_words) = 'array' then a.key_words else '[]'::jsonb end)
            with ordinality as w(k, n)
          where coalesce((k->>'passages')::int, 0) = 0 and not coalesce((k->>'context')::boolean, false)
            and (k->>'part')::bigint is not distinct from p.number
        ), '[]'::jsonb) as lacked
      from (${answers}) a
      left join lateral jsonb_array_elements(case when jsonb_typeof(a.parts) = 'array' then a.parts else '[]'::jsonb end)
        with ordinality as p(part, number) on true
      where a.question is not null and a.outcome <> 'small_talk'`;
    await tx.execute(sql`
      insert into insight_questions (app_id, trigger_point, environment, day, question_key, asked, unanswered, closest, fallback_reason, left_out, files_not_tagged, wording, lacked, asked_as, asked_as_answer, last_fallback_answer)
      select ${appId}, trigger_point, environment, day, key, count(*), count(*) filter (where outcome = 'fallback'),
        coalesce((array_agg(closest order by id desc) filter (where outcome = 'fallback'))[1], '[]'::jsonb),
        (array_agg(fallback_reason order by id desc) filter (where outcome = 'fallback'))[1],
        coalesce((array_agg(left_out order by id desc) filter (where outcome = 'fallback'))[1], false),
        coalesce((array_agg(files_not_tagged order by id desc) filter (where outcome = 'fallback'))[1], '[]'::jsonb),
        (array_agg(question order by id desc) filter (where outcome = 'fallback'))[1],
        coalesce((array_agg(lacked order by id desc) filter (where outcome = 'fallback'))[1], '[]'::jsonb),
        (array_agg(question order by id desc))[1], max(id), max(id) filter (where outcome = 'fallback')
      from (select a.*, ${questionKey(sql`a.question`)} as key from (${asks}) a) keyed
      group by trigger_point, environment, day, key`);
    await tx.execute(sql`
      insert into insight_sources (app_id, trigger_point, environment, day, url, title, cited)
      select ${appId}, a.trigger_point, a.environment, a.day, s->>'url', max(s->>'title'), count(*)
      from (${answers}) a cross join lateral jsonb_array_elements(a.sources) s
      -- Web pages only: a file's link is signed anew for every answer.
      where exists (select 1 from urls u where u.app_id = ${appId} and u.url = s->>'url')
      group by a.trigger_point, a.environment, a.day, s->>'url'`);
    // The months those days fall in, recounted from their days (the untouched days included).
    const months = [...new Set(days.map((day) => `${day.slice(0, 7)}-01`))];
    await tx
      .delete(insightQuestionMonths)
      .where(and(eq(insightQuestionMonths.appId, appId), inArray(insightQuestionMonths.month, months)));
    await tx.execute(sql`
      insert into insight_question_months (app_id, trigger_point, environment, month, question_key, asked, unanswered)
      select ${appId}, trigger_point, environment, date_trunc('month', day)::date, question_key, sum(asked), sum(unanswered)
      from insight_questions
      where app_id = ${appId} and date_trunc('month', day)::date in (${sql.join(
        months.map((m) => sql`${m}::date`),
        sql`, `,
      )})
      group by trigger_point, environment, date_trunc('month', day)::date, question_key`);
  });
}

/**
 * A day range as whole calendar months inside it plus the days at either end outside them, so
 * long ranges read month rollups. Days are YYYY-MM-DD (UTC). The walk compares time values, not
 * texts: the month after 9999-12 is written "+010000-01-01", which sorts before "9999-…" as text.
 */
export function splitByMonths(from: string, to: string) {
  const timeOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
  const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
  // Date.UTC would read the years 0–99 as 1900–1999; setting the month on a date does not.
  const monthAfter = (time: number) => {
    const date = new Date(time);
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + 1);
    return date.getTime();
  };
  const first = timeOf(from);
  const last = timeOf(to);
  const months: number[] = [];
  let start = new Date(first).getUTCDate() === 1 ? first : monthAfter(first);
  while (monthAfter(start) - DAY_MS <= last) {
    months.push(start);
    start = monthAfter(start);
  }
  if (!months.length) return { months: [] as string[], dayRanges: [[from, to]] as [string, string][] };
  const dayRanges: [string, string][] = [];
  if (first < months[0]) dayRanges.push([from, dayOf(months[0] - DAY_MS)]);
  if (start <= last) dayRanges.push([dayOf(start), to]);
  return { months: months.map(dayOf), dayRanges };
}
