import { sql, type SQL } from "drizzle-orm";
import {
  DEFAULT_INSIGHT_DAYS,
  FIRST_DAY,
  FALLBACK_REASONS,
  MAX_INSIGHT_DAYS,
  type FallbackReason,
  type GapPage,
  type Insights,
  type InsightDay,
  type UnhelpfulAnswer,
} from "@contract";
import { rowsOf as rowsOfResult } from "../db/rows";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";
import { LEAD_SCORE_RULE, LEAD_SCORE_SQL, leadScore } from "./lead-score";
import { DAY_MS, splitByMonths } from "./rollups";
import { closestInventoryPages } from "./gap-pages";

/*
 * The dashboard's figures, read from the rollups (never from raw messages, so the cost follows
 * the number of days and distinct questions, not of messages) plus the leads, which are few.
 */

const rowsOf = async <T>(query: Promise<unknown>) => rowsOfResult<T>(await query);

export interface InsightScope {
  appId: number;
  from: string;
  to: string;
  triggerPoint?: string;
  environment: "all" | "prod" | "stage";
}

type Gap = Insights["unanswered_questions"][number];

/** A recorded reason as the contract names them; null for answers traced before reasons were (or one no longer named). */
const fallbackReasonOf = (reason: string | null | undefined): FallbackReason | null =>
  FALLBACK_REASONS.find((known) => known === reason) ?? null;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const FIRST_TIME = Date.parse(`${FIRST_DAY}T00:00:00Z`);

/** The range asked for, or the last 30 days (UTC) ending today; refuses reversed or over-long ranges. */
export function insightRange(query: { from?: string; to?: string }, now = Date.now()) {
  const to = query.to ?? isoDay(now);
  // Days before the first of the calendar are not days PostgreSQL knows: the default range starts there at the earliest.
  const defaultFrom = isoDay(Math.max(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_INSIGHT_DAYS - 1) * DAY_MS, FIRST_TIME));
  const from = query.from ?? defaultFrom;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1)
    throw badRequest("The start date must not be after the end date", {
      from: ["The start date must not be after the end date"],
    });
  if (days > MAX_INSIGHT_DAYS)
    throw badRequest(`Choose at most ${MAX_INSIGHT_DAYS} days`, { from: [`Choose at most ${MAX_INSIGHT_DAYS} days`] });
  return { from, to, days };
}

/** The rollup rows of the scope's client, trigger point and environment (alias r), whatever their day. */
function rollupScope(scope: InsightScope): SQL {
  const parts = [sql`r.app_id = ${scope.appId}`];
  if (scope.triggerPoint !== undefined) parts.push(sql`r.trigger_point = ${scope.triggerPoint}`);
  if (scope.environment !== "all") parts.push(sql`r.environment = ${scope.environment}`);
  return sql.join(parts, sql` and `);
}

/** The rollup rows of the scope (alias r), its days included. */
const rollupFilter = (scope: InsightScope): SQL =>
  sql`${rollupScope(scope)} and r.day between ${scope.from}::date and ${scope.to}::date`;

/** Question counts of the scope: whole months from the month rollup, the days around them from the daily one. */
function questionCounts(scope: InsightScope): SQL {
  const { months, dayRanges } = splitByMonths(scope.from, scope.to);
  const parts: SQL[] = [];
  if (dayRanges.length) {
    const inRanges = sql.join(
      dayRanges.map(([from, to]) => sql`r.day between ${from}::date and ${to}::date`),
      sql` or `,
    );
    parts.push(
      sql`select r.question_key, r.asked, r.unanswered from insight_questions r where ${rollupScope(scope)} and (${inRanges})`,
    );
  }
  if (months.length) {
    parts.push(sql`select r.question_key, r.asked, r.unanswered from insight_question_months r
      where ${rollupScope(scope)} and r.month in (${sql.join(
        months.map((m) => sql`${m}::date`),
        sql`, `,
      )})`);
  }
  return sql.join(parts, sql` union all `);
}

/**
 * The instant a UTC day begins. Through `timestamp`: `date at time zone` reads the date in the
 * session's time zone first, which put the bounds twice that zone's offset away.
 */
const utcStartOf = (day: SQL) => sql`(${day})::timestamp at time zone 'utc'`;

/** The conversations of the scope (alias c), by when they started. */
function conversationFilter(scope: InsightScope): SQL {
  const parts = [
    sql`c.app_id = ${scope.appId}`,
    sql`c.started_at >= ${utcStartOf(sql`${scope.from}::date`)}`,
    sql`c.started_at < ${utcStartOf(sql`${scope.to}::date + 1`)}`,
  ];
  if (scope.triggerPoint !== undefined) parts.push(sql`c.trigger_point = ${scope.triggerPoint}`);
  if (scope.environment !== "all") parts.push(sql`c.environment = ${scope.environment}`);
  return sql.join(parts, sql` and `);
}

/**
 * The answers rated down in the scope (alias m, their conversations c), by when they were rated:
 * messages_rated_down_idx reads them without the client's other messages.
 */
function ratedDownFilter(scope: InsightScope): SQL {
  const parts = [
    sql`m.app_id = ${scope.appId}`,
    sql`m.rating = 'down'`,
    sql`m.rated_at >= ${utcStartOf(sql`${scope.from}::date`)}`,
    sql`m.rated_at < ${utcStartOf(sql`${scope.to}::date + 1`)}`,
  ];
  if (scope.triggerPoint !== undefined) parts.push(sql`c.trigger_point = ${scope.triggerPoint}`);
  if (scope.environment !== "all") parts.push(sql`c.environment = ${scope.environment}`);
  return sql.join(parts, sql` and `);
}

type UnhelpfulRow = Omit<UnhelpfulAnswer, "rated_at"> & { rated_at: string };

/** How many answers of the scope were rated down, and the latest `limit` with the question each answered. */
async function readUnhelpful(
  scope: InsightScope,
  limit: number,
  deps: Pick<ApiDeps, "db">,
): Promise<Insights["unhelpful"]> {
  const where = ratedDownFilter(scope);
  const [row] = await rowsOf<{ total: number; answers: UnhelpfulRow[] | null }>(
    deps.db.execute(sql`
    select
      (select count(*)::int from messages m join conversations c on c.id = m.conversation_id where ${where}) as total,
      (select json_agg(a order by a.rated_at desc, a.message_id desc) from (
        select m.conversation_id, m.id as message_id, m.text as answer, m.comment, m.rated_at, m.reviewed, c.trigger_point,
          -- The question is the visitor's message just before the answer (messages_conversation_idx).
          coalesce((select q.text from messages q where q.conversation_id = m.conversation_id and q.role = 'user' and q.id < m.id
            order by q.id desc limit 1), '') as question
        from messages m join conversations c on c.id = m.conversation_id where ${where}
        order by m.rated_at desc, m.id desc limit ${limit}) a) as answers`),
  );
  return {
    total: Number(row?.total ?? 0),
    answers: (row?.answers ?? []).map((a) => ({
      conversation_id: String(a.conversation_id),
      message_id: Number(a.message_id),
      question: a.question,
      answer: a.answer,
      comment: a.comment,
      rated_at: new Date(a.rated_at).toISOString(),
      reviewed: Boolean(a.reviewed),
      trigger_point: a.trigger_point,
    })),
  };
}

/**
 * How the visitor worded each of these questions' latest ask in the scope; none for an ask counted
 * before wordings were kept. Each is the latest row holding it, read backwards along
 * the daily rollup's key (app, day): a question asked most is nearly always asked near the range's
 * end, so this reads a few days' rows where reading the range again read all of them.
 */
async function latestWordings(scope: InsightScope, keys: string[], deps: Pick<ApiDeps, "db">) {
  if (!keys.length) return new Map<string, string>();
  const rows = await rowsOf<{ question: string; asked_as: string | null }>(
    deps.db.execute(sql`
    select k.key as question, latest.asked_as
    from unnest(array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) as k(key)
    cross join lateral (
      select r.asked_as from insight_questions r
      where ${rollupFilter(scope)} and r.question_key = k.key
      order by r.day desc, r.asked_as_answer desc nulls last, r.trigger_point, r.environment limit 1
    ) latest`),
  );
  return new Map(rows.flatMap((row) => (row.asked_as ? [[row.question, row.asked_as] as const] : [])));
}

const NAME = /(^|[\s_])(first[\s_]|full[\s_])?name$/i;
const CONTACT = /e-?mail|phone|mobile/i;
const firstValue = (values: Record<string, unknown>, pattern: RegExp) =>
  String(
    Object.entries(values).find(([name, value]) => pattern.test(name) && value !== null && value !== "")?.[1] ?? "",
  );

/**
 * The day an unanswered question's latest ask in the range was answered, when that ask came after
 * its last unanswered one (a page added or a setting changed since, then asked again); absent
 * otherwise. The latest row of the range is the one asked last (the latest day, and of that day's
 * rows the highest answer id), so its own ids tell it: no ask of another row on that day was later.
 */
async function answeredSinceOf(where: SQL, keys: string[], deps: Pick<ApiDeps, "db">) {
  if (!keys.length) return new Map<string, string>();
  const rows = await rowsOf<{
    question: string;
    day: string;
    unanswered: number;
    latest: number | null;
    last_fallback: number | null;
  }>(
    deps.db.execute(sql`
    select distinct on (r.question_key) r.question_key as question, to_char(r.day, 'YYYY-MM-DD') as day, r.unanswered,
      r.asked_as_answer as latest, r.last_fallback_answer as last_fallback
    from insight_questions r where ${where} and r.question_key in (${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )})
    order by r.question_key, r.day desc, r.asked_as_answer desc nulls last, r.trigger_point, r.environment`),
  );
  const answered = rows.filter(
    (row) =>
      row.latest !== null &&
      (Number(row.unanswered) === 0 || (row.last_fallback !== null && Number(row.last_fallback) < Number(row.latest))),
  );
  return new Map(answered.map((row) => [row.question, row.day]));
}

export async function readInsights(
  scope: InsightScope,
  deps: Pick<ApiDeps, "db">,
  limits = { questions: 10, sources: 10, leads: 10, unhelpful: 10, gapPages: true },
): Promise<Insights> {
  const where = rollupFilter(scope);
  const score = sql.raw(LEAD_SCORE_SQL("p.field_score", "c.question_count"));
  // Independent reads, sent together: on PostgreSQL they run side by side on the pool's connections.
  const [dayRows, questions, sources, [leadRows], unhelpful] = await Promise.all([
    rowsOf<Record<string, string | number>>(
      deps.db.execute(sql`
      select to_char(r.day, 'YYYY-MM-DD') as day, sum(r.conversations)::int as conversations, sum(r.questions)::int as questions,
        sum(r.answered)::int as answered, sum(r.fallback)::int as fallback, sum(r.canned)::int as canned, sum(r.disclaimed)::int as disclaimed,
        sum(r.small_talk)::int as small_talk
      from insight_days r where ${where} group by r.day`),
    ),
    // One pass over the question rollups answers both lists: the most asked and the most often unanswered.
    rowsOf<{
      question: string;
      asked: number;
      unanswered: number;
      asked_rank: number;
      unanswered_rank: number;
      top_asked: boolean;
      top_unanswered: boolean;
    }>(
      deps.db.execute(sql`
      select question, asked, unanswered, asked_rank, unanswered_rank,
        asked_rank <= ${limits.questions} as top_asked, unanswered > 0 and unanswered_rank <= ${limits.questions} as top_unanswered
      from (
        select question, asked, unanswered,
          row_number() over (order by asked desc, question) as asked_rank, row_number() over (order by unanswered desc, question) as unanswered_rank
        from (select q.question_key as question, sum(q.asked)::int as asked, sum(q.unanswered)::int as unanswered
          from (${questionCounts(scope)}) q group by q.question_key) totals
      ) ranked
      where asked_rank <= ${limits.questions} or (unanswered > 0 and unanswered_rank <= ${limits.questions})`),
    ),
    rowsOf<{ url: string; title: string; cited: number }>(
      deps.db.execute(sql`
      select r.url, max(r.title) as title, sum(r.cited)::int as cited
      from insight_sources r where ${where} group by r.url order by cited desc, r.url limit ${limits.sources}`),
    ),
    // The leads are read once and answered twice: per day (count and score sum) and the best few,
    // leads of one score and start by conversation, as the profile store lists them.
    rowsOf<{
      days: { day: string; leads: number; score_sum: number }[] | null;
      top: { conversation_id: string; values: Record<string, unknown>; questions: number; started_at: string }[] | null;
    }>(
      deps.db.execute(sql`
      with leads as materialized (
        select p.conversation_id, p.values, c.question_count as questions, c.started_at, ${score} as score
        from visitor_profiles p join conversations c on c.id = p.conversation_id
        where p.is_lead and ${conversationFilter(scope)}
      )
      select
        (select json_agg(d) from (
          select to_char((leads.started_at at time zone 'utc')::date, 'YYYY-MM-DD') as day, count(*)::int as leads, sum(leads.score)::int as score_sum
          from leads group by 1) d) as days,
        (select json_agg(t) from (
          select leads.conversation_id, leads.values, leads.questions, leads.started_at from leads
          order by leads.score desc, leads.started_at desc, leads.conversation_id limit ${limits.leads}) t) as top`),
    ),
    readUnhelpful(scope, limits.unhelpful, deps),
  ]);
  // In the order the ranks were given (ties by the database's order of the text), so a list of ten
  // is the first ten of a longer one: a second order here put a question the ten left out second.
  const unansweredKeys = questions
    .filter((q) => q.top_unanswered)
    .sort((x, y) => Number(x.unanswered_rank) - Number(y.unanswered_rank));
  const topQuestions = questions.filter((q) => q.top_asked).sort((x, y) => Number(x.asked_rank) - Number(y.asked_rank));
  // For the few questions listed only, sent together: the unanswered ones' closest passages (the
  // latest day's, of the row of that day asked last: one day holds a row per agent and environment),
  // how the top ones were last worded, and the inventory's pages nearest now. Rows counted before
  // answer ids were kept say nothing of which was asked last: of those, the agent and environment
  // pick one, the same at every read, where PostgreSQL would give whichever it stores first.
  const [closestRows, askedAs, pagesOf, answeredSince] = await Promise.all([
    unansweredKeys.length
      ? rowsOf<{
          question: string;
          closest: Gap["closest"];
          fallback_reason: string | null;
          left_out: boolean;
          files_not_tagged: string[];
          trigger_point: string;
          wording: string | null;
          lacked: string[];
        }>(
          deps.db.execute(sql`
    select distinct on (r.question_key) r.question_key as question, r.closest, r.fallback_reason, r.left_out, r.files_not_tagged, r.trigger_point, r.wording, r.lacked
    from insight_questions r where ${where} and r.unanswered > 0 and r.question_key in (${sql.join(
      unansweredKeys.map((q) => sql`${q.question}`),
      sql`, `,
    )})
    order by r.question_key, r.day desc, r.asked_as_answer desc nulls last, r.trigger_point, r.environment`),
        )
      : [],
    latestWordings(
      scope,
      topQuestions.map((q) => q.question),
      deps,
    ),
    limits.gapPages
      ? closestInventoryPages(
          scope.appId,
          unansweredKeys.map((q) => q.question),
          deps,
        )
      : new Map<string, GapPage[]>(),
    answeredSinceOf(
      where,
      unansweredKeys.map((q) => q.question),
      deps,
    ),
  ]);
  const latestOf = new Map(closestRows.map((row) => [row.question, row]));
  const leadDays = leadRows?.days ?? [];
  const topLeads = leadRows?.top ?? [];
  const captured = leadDays.reduce((sum, row) => sum + Number(row.leads), 0);
  const scoreSum = leadDays.reduce((sum, row) => sum + Number(row.score_sum), 0);

  const byDay = new Map(dayRows.map((row) => [String(row.day), row]));
  const leadsByDay = new Map(leadDays.map((row) => [row.day, Number(row.leads)]));
  const days: InsightDay[] = [];
  for (let t = Date.parse(`${scope.from}T00:00:00Z`); t <= Date.parse(`${scope.to}T00:00:00Z`); t += DAY_MS) {
    const day = isoDay(t);
    const row = byDay.get(day);
    const count = (key: string) => Number(row?.[key] ?? 0);
    days.push({
      day,
      conversations: count("conversations"),
      questions: count("questions"),
      answered: count("answered"),
      fallback: count("fallback"),
      canned: count("canned"),
      disclaimed: count("disclaimed"),
      small_talk: count("small_talk"),
      leads: leadsByDay.get(day) ?? 0,
    });
  }
  const sum = (key: keyof Omit<InsightDay, "day">) => days.reduce((total, day) => total + day[key], 0);
  return {
    range: { from: scope.from, to: scope.to },
    totals: {
      conversations: sum("conversations"),
      questions: sum("questions"),
      answered: sum("answered"),
      fallback: sum("fallback"),
      canned: sum("canned"),
      disclaimed: sum("disclaimed"),
      small_talk: sum("small_talk"),
      leads: sum("leads"),
    },
    days,
    top_questions: topQuestions.map((q) => ({
      question: q.question,
      asked_as: askedAs.get(q.question) ?? q.question,
      asked: Number(q.asked),
      unanswered: Number(q.unanswered),
    })),
    unanswered_questions: unansweredKeys.map((q) => ({
      question: q.question,
      unanswered: Number(q.unanswered),
      closest: latestOf.get(q.question)?.closest ?? [],
      fallback_reason: fallbackReasonOf(latestOf.get(q.question)?.fallback_reason),
      left_out: latestOf.get(q.question)?.left_out === true,
      files_not_tagged: latestOf.get(q.question)?.files_not_tagged ?? [],
      trigger_point: latestOf.get(q.question)?.trigger_point ?? "",
      asked_as: latestOf.get(q.question)?.wording ?? q.question,
      lacked_words: latestOf.get(q.question)?.lacked ?? [],
      pages: pagesOf.get(q.question) ?? [],
      answered_since: answeredSince.get(q.question) ?? null,
    })),
    leads: {
      captured,
      average_score: captured ? Math.round((scoreSum / captured) * 10) / 10 : null,
      top: topLeads.map((lead) => {
        const { score: total, reasons } = leadScore(lead.values, Number(lead.questions));
        return {
          conversation_id: String(lead.conversation_id),
          name: firstValue(lead.values, NAME),
          contact: firstValue(lead.values, CONTACT),
          score: total,
          reasons,
          started_at: new Date(lead.started_at).toISOString(),
        };
      }),
    },
    top_sources: sources.map((s) => ({ url: s.url, title: s.title, cited: Number(s.cited) })),
    unhelpful,
    lead_score_rule: LEAD_SCORE_RULE,
  };
}
