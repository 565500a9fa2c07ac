import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  IdParam,
  InsightExportBody,
  InsightExportResult,
  Insights,
  InsightsQuery,
  toCsv,
  UserProfileDeleted,
  UserProfileDetail,
  UserProfilesList,
  UserProfilesQuery,
  type InsightChart,
  type UserProfileRow,
} from "@contract";
import { requireApp } from "../auth/permissions";
import { rowsOf } from "../db/rows";
import { cursorOf, exactTime, ExactTime, KeyUuid, readCursor } from "../db/keyset";
import { clientApps, conversations, messages, profileFields, storedFiles, visitorProfiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import { notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { LEAD_SCORE_RULE, leadScore } from "./lead-score";
import { insightRange, readInsights, type InsightScope } from "./queries";
import { rebuildInsightDays } from "./rollups";
import { containing } from "../db/like";
import type { StorageWrites } from "../http/storage-writes";
import { fileStamp } from "../storage/file-stamp";

const AppParams = z.object({ appId: IdParam });
const ProfileParams = AppParams.extend({ conversationId: z.uuid({ error: "Not a profile id" }) });

const scopeOf = (appId: number, query: z.output<typeof InsightsQuery>): InsightScope => ({
  appId,
  ...insightRange(query),
  triggerPoint: query.trigger_point,
  environment: query.environment,
});

/** One chart's figures as CSV rows, header first. */
function chartCsv(chart: InsightChart, insights: Insights) {
  switch (chart) {
    case "conversations":
      return [
        ["Day", "Conversations", "Questions", "Leads"],
        ...insights.days.map((d) => [d.day, d.conversations, d.questions, d.leads]),
      ];
    case "outcomes":
      return [
        ["Day", "Answered", "Fallback", "Canned (no-go)", "Disclaimed (sensitive)", "Small talk"],
        ...insights.days.map((d) => [d.day, d.answered, d.fallback, d.canned, d.disclaimed, d.small_talk]),
      ];
    case "top_questions":
      return [
        ["Question", "Asked", "Unanswered"],
        ...insights.top_questions.map((q) => [q.asked_as, q.asked, q.unanswered]),
      ];
    case "unanswered_questions":
      return [
        [
          "Question",
          "Unanswered",
          "Words no passage held",
          "Closest passage",
          "Its page",
          "Its score",
          "Files not tagged",
          "Answered since",
        ],
        ...insights.unanswered_questions.map((q) => [
          q.asked_as,
          q.unanswered,
          q.lacked_words.join(", "),
          q.closest[0]?.text ?? "",
          q.closest[0]?.url ?? "",
          q.closest[0]?.score ?? "",
          q.files_not_tagged.join(", "),
          q.answered_since ?? "",
        ]),
      ];
    case "leads":
      return [
        ["Started", "Name", "Contact", "Score", "Why"],
        ...insights.leads.top.map((l) => [l.started_at, l.name, l.contact, l.score, l.reasons.join("; ")]),
      ];
    case "sources":
      return [["Page", "Title", "Cited"], ...insights.top_sources.map((s) => [s.url, s.title, s.cited])];
    case "unhelpful_answers":
      return [
        ["Rated", "Trigger point", "Question", "Answer", "Comment", "Reviewed", "Conversation", "Message"],
        ...insights.unhelpful.answers.map((a) => [
          a.rated_at,
          a.trigger_point || "Default",
          a.question,
          a.answer,
          a.comment ?? "",
          a.reviewed ? "yes" : "no",
          a.conversation_id,
          a.message_id,
        ]),
      ];
  }
}

/** The profiles of a client as the store lists them (alias p for profiles, c for conversations). */
function profileFilter(appId: number, query: z.output<typeof UserProfilesQuery>): SQL {
  const parts = [sql`p.app_id = ${appId}`];
  // The values the visitor gave, not the fields' names: "email" would otherwise find every profile with one.
  // Both sides composed (NFC): a visitor's "José" may hold the accent as a mark of its own, which the
  // operator's typed "José" does not match letter for letter.
  if (query.search)
    parts.push(
      sql`exists (select 1 from jsonb_each_text(p.values) as given(field, value)
        where normalize(given.value, NFC) ilike ${containing(query.search.normalize("NFC"))})`,
    );
  if (query.trigger_point !== undefined) parts.push(sql`c.trigger_point = ${query.trigger_point}`);
  if (query.environment !== "all") parts.push(sql`c.environment = ${query.environment}`);
  if (query.leads_only === "true") parts.push(sql`p.is_lead`);
  return sql.join(parts, sql` and `);
}

interface ProfileRecord {
  conversation_id: string;
  values: Record<string, unknown>;
  is_lead: boolean;
  questions: number;
  trigger_point: string;
  environment: string;
  started_at: string | Date;
  last_message_at: string | Date;
  /** started_at to the microsecond, for the cursor. */
  started_key: string;
}

/** A cursor of the store's list (newest first, then by conversation id): the row's start and id. */
const ProfileCursor = z.tuple([ExactTime, KeyUuid]);

/** The profiles after a cursor's, in the list's order (its start descending, its id ascending). */
function afterProfile(cursor: string): SQL {
  const [at, id] = readCursor(cursor, ProfileCursor);
  return sql`(c.started_at < ${at}::timestamptz or (c.started_at = ${at}::timestamptz and p.conversation_id > ${id}::uuid))`;
}

function toProfileRow(row: ProfileRecord): UserProfileRow {
  const { score, reasons } = leadScore(row.values, Number(row.questions));
  return {
    conversation_id: String(row.conversation_id),
    values: row.values,
    lead: Boolean(row.is_lead),
    score,
    reasons,
    questions: Number(row.questions),
    trigger_point: row.trigger_point,
    environment: row.environment,
    started_at: new Date(row.started_at).toISOString(),
    last_message_at: new Date(row.last_message_at).toISOString(),
  };
}

const PROFILE_COLUMNS = sql`p.conversation_id, p.values, p.is_lead, c.question_count as questions, c.trigger_point, c.environment, c.started_at, c.last_message_at`;

/** Insight reports that can quote visitors (their questions, their names and contacts). */
const VISITOR_WORD_REPORTS = [
  "insights_top_questions",
  "insights_unanswered_questions",
  "insights_leads",
  "insights_unhelpful_answers",
];

/** Values that identify a person: the emails and phone numbers in a profile, lower-cased. */
/** A profile's email addresses, as compared: trimmed, in lower case. */
const emailsOf = (values: Record<string, unknown>) =>
  Object.entries(values)
    .filter(([name]) => /e-?mail/i.test(name))
    .map(([, value]) => String(value).trim().toLowerCase())
    .filter(Boolean);

/**
 * The digits phone numbers are compared by: their last nine. "(555) 010-9999", "555-010-9999" and
 * "+1 555 010 9999" are one number, as "+33 6 12 34 56 78" and "06 12 34 56 78" are (a country code
 * or a trunk zero before them differs). Numbers of fewer than seven digits are not compared.
 */
const PHONE_DIGITS_COMPARED = 9;
const phonesOf = (values: Record<string, unknown>) =>
  Object.entries(values)
    .filter(([name]) => /phone|mobile/i.test(name))
    .map(([, value]) => String(value).replace(/\D/g, ""))
    .filter((digits) => digits.length >= 7)
    .map((digits) => digits.slice(-PHONE_DIGITS_COMPARED));

export function insightRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  route({
    method: "get",
    path: "/v1/apps/:appId/insights",
    tag: "Insights",
    summary:
      "Business Insights for a date range (UTC days, the last 30 by default), one trigger point or all, one environment or both: " +
      "conversations and outcomes per day, top and unanswered questions, leads, most cited sources (read from daily rollups), and the " +
      "answers visitors rated unhelpful, latest first.",
    params: AppParams,
    query: InsightsQuery,
    response: Insights,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return readInsights(scopeOf(params.appId, query), deps);
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/insights/export",
    tag: "Insights",
    summary: "Writes one chart's figures as a CSV file into the client's Admin Downloads and answers a link to it.",
    params: AppParams,
    body: InsightExportBody,
    response: InsightExportResult,
    handler: async ({ params, body, caller, deps }) => {
      // An export adds a file to Admin Downloads: a write, which a read-only Client may not make.
      requireApp(caller, params.appId, "configure");
      await storageWrites.take(caller);
      const [app] = await deps.db
        .select({ urlCode: clientApps.urlCode })
        .from(clientApps)
        .where(eq(clientApps.id, params.appId));
      if (!app) throw notFound("Client not found");
      const scope = scopeOf(params.appId, body);
      // The files hold what the charts show, plus longer lists than the dashboard's ten.
      const insights = await readInsights(scope, deps, {
        questions: 500,
        sources: 500,
        leads: 1000,
        unhelpful: 1000,
        gapPages: false,
      });
      const fileName = `${app.urlCode}-${body.chart.replace(/_/g, "-")}-${scope.from}-to-${scope.to}-${fileStamp()}.csv`;
      // Under the client's id, not its code: a code given up and taken by another client names another folder.
      const key = `reports/${params.appId}/${fileName}`;
      const { size } = await deps.storage.put(key, toCsv(chartCsv(body.chart, insights)));
      const fileType = `insights_${body.chart}`;
      await deps.db
        .insert(storedFiles)
        .values({ appId: params.appId, fileType, fileName, storageKey: key, size })
        .onConflictDoUpdate({ target: storedFiles.storageKey, set: { size, createdAt: new Date() } });
      const link = await deps.storage.signedDownloadUrl(key, fileName);
      return { file_name: fileName, file_type: fileType, download_url: link.url };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/user_profiles",
    tag: "Insights",
    summary:
      "The profiles the assistant captured (values by the client's user profile fields), newest first, with each lead score and why.",
    params: AppParams,
    query: UserProfilesQuery,
    response: UserProfilesList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      const where = profileFilter(params.appId, query);
      const keyset = query.after === undefined ? null : afterProfile(query.after);
      // A page read by cursor is not counted: the export reads the count once, with its first page.
      const total = keyset
        ? 0
        : rowsOf<{ total: number }>(
            await deps.db.execute(sql`
        select count(*)::int as total from visitor_profiles p join conversations c on c.id = p.conversation_id where ${where}`),
          )[0].total;
      // One row past the page says whether another follows (next_after).
      const read = rowsOf<ProfileRecord>(
        await deps.db.execute(sql`
        select ${PROFILE_COLUMNS}, ${exactTime(sql`c.started_at`)} as started_key
        from visitor_profiles p join conversations c on c.id = p.conversation_id where ${where}${keyset ? sql` and ${keyset}` : sql``}
        order by c.started_at desc, p.conversation_id limit ${query.page_size + 1} offset ${keyset ? 0 : (query.page - 1) * query.page_size}`),
      );
      const rows = read.slice(0, query.page_size);
      const last = rows[rows.length - 1];
      const next_after =
        read.length > query.page_size ? cursorOf([last.started_key, String(last.conversation_id)]) : null;
      const fields = await deps.db
        .select({ name: profileFields.name })
        .from(profileFields)
        .where(and(eq(profileFields.appId, params.appId), eq(profileFields.modelType, "user_profile")))
        .orderBy(asc(profileFields.id));
      return {
        data: rows.map(toProfileRow),
        total: Number(total),
        next_after,
        fields: fields.map((f) => f.name),
        lead_score_rule: LEAD_SCORE_RULE,
      };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/user_profiles/:conversationId",
    tag: "Insights",
    summary: "One captured profile with the conversation that produced it, and which message each value came from.",
    params: ProfileParams,
    response: UserProfileDetail,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      const [row] = rowsOf<ProfileRecord & { source_messages: Record<string, number> }>(
        await deps.db.execute(sql`
        select ${PROFILE_COLUMNS}, p.source_messages from visitor_profiles p join conversations c on c.id = p.conversation_id
        where p.app_id = ${params.appId} and p.conversation_id = ${params.conversationId}::uuid`),
      );
      if (!row) throw notFound("Profile not found");
      const said = await deps.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, params.conversationId))
        .orderBy(asc(messages.id));
      return {
        profile: toProfileRow(row),
        field_sources: row.source_messages,
        messages: said.map((m) => ({
          id: m.id,
          role: m.role,
          text: m.text,
          outcome: m.outcome,
          created_at: m.createdAt.toISOString(),
        })),
      };
    },
  });

  route({
    method: "delete",
    path: "/v1/apps/:appId/user_profiles/:conversationId",
    tag: "Insights",
    summary:
      "Deletes one person's data on request: this profile and every profile of the client sharing its email or phone, their conversations and messages, and their share of the dashboard's figures.",
    params: ProfileParams,
    response: UserProfileDeleted,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const deleted = await deletePerson(params.appId, params.conversationId, deps);
      if (!deleted) throw notFound("Profile not found");
      return {
        message:
          deleted === 1
            ? "Deleted the person's profile and conversation"
            : `Deleted the person's ${deleted} profiles and conversations`,
        deleted_conversations: deleted,
      };
    },
  });
}

/**
 * Removes a person: the profile, every other profile of the client with the same email or phone,
 * their conversations (messages go with them), and then recounts the dashboard's days those
 * conversations touched, so no question of theirs stays in the rollups, and deletes the client's
 * reports that hold visitors' words. Answers how many conversations went.
 */
export async function deletePerson(appId: number, conversationId: string, deps: Pick<ApiDeps, "db" | "storage">) {
  const [profile] = await deps.db
    .select()
    .from(visitorProfiles)
    .where(and(eq(visitorProfiles.appId, appId), eq(visitorProfiles.conversationId, conversationId)));
  if (!profile) return 0;
  const emails = emailsOf(profile.values);
  const phones = phonesOf(profile.values);
  const listed = (values: string[]) =>
    values.length
      ? sql.join(
          values.map((value) => sql`${value}`),
          sql`, `,
        )
      : sql`null`;
  const sameContact =
    emails.length || phones.length
      ? rowsOf<{ conversation_id: string }>(
          await deps.db.execute(sql`
        select p.conversation_id from visitor_profiles p, jsonb_each_text(p.values) v
        where p.app_id = ${appId} and (
          (v.key ~* 'e-?mail' and lower(btrim(v.value)) in (${listed(emails)}))
          or (v.key ~* 'phone|mobile' and length(regexp_replace(v.value, '[^0-9]', '', 'g')) >= 7
            and right(regexp_replace(v.value, '[^0-9]', '', 'g'), ${PHONE_DIGITS_COMPARED}) in (${listed(phones)})))`),
        ).map((r) => String(r.conversation_id))
      : [];
  const ids = [...new Set([conversationId, ...sameContact])];
  const days = rowsOf<{ day: string }>(
    await deps.db.execute(sql`
    select distinct to_char((at_time at time zone 'utc')::date, 'YYYY-MM-DD') as day from (
      select started_at as at_time from conversations where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      union select created_at from messages where conversation_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
    ) touched`),
  ).map((r) => r.day);
  const reports = await deps.db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.appId, appId), inArray(storedFiles.fileType, VISITOR_WORD_REPORTS)));
  await deps.db.transaction(async (tx) => {
    await tx.delete(conversations).where(and(eq(conversations.appId, appId), inArray(conversations.id, ids)));
    await rebuildInsightDays(appId, days, tx);
    if (reports.length)
      await tx.delete(storedFiles).where(
        inArray(
          storedFiles.id,
          reports.map((r) => r.id),
        ),
      );
  });
  // Reports are written again on demand; the ones made before may quote this person.
  for (const report of reports) await deps.storage.delete(report.storageKey);
  return ids.length;
}
