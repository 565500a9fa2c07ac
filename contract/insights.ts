import { z } from "zod";
import { IsoDay, pageNumber } from "./common";
import { Cursor } from "./cursor";
import { LIST_PAGE_SIZES, oneOf } from "./values/common";
import { FALLBACK_REASONS } from "./values/conversations";
import { INSIGHT_ENVIRONMENTS, INSIGHT_CHARTS } from "./values/insights";
export * from "./values/insights";

/*
 * Business Insights (/dashboard) and the user profile store (/user_profiles): the assistant's
 * conversations, outcomes, questions, leads and cited sources per client.
 */

export const InsightsQuery = z.object({
  from: IsoDay.optional(),
  to: IsoDay.optional(),
  /** One trigger point ('' for Default), or every one when absent. */
  trigger_point: z.string().max(100).optional(),
  environment: z.enum(INSIGHT_ENVIRONMENTS, { error: "environment must be all, prod or stage" }).default("all"),
});
export type InsightsQuery = z.input<typeof InsightsQuery>;

export const ClosestPassage = z.object({ title: z.string(), url: z.string(), score: z.number(), text: z.string() });
/** Where a page of the client's own inventory stands, as a gap list groups them. */
export const GAP_PAGE_STATES = ["indexed", "not_indexed", "skipped", "failed", "deleted"] as const;
/** A page of the client's inventory (any status) whose address holds the words of an unanswered question. */
export const GapPage = z.object({
  url_id: z.number().int(),
  website_id: z.number().int(),
  url: z.string(),
  title: z.string(),
  status: z.string(),
  state: z.enum(GAP_PAGE_STATES),
  /** Why it failed or was skipped, when the pipeline said. */
  reason: z.string().nullable(),
});
export type GapPage = z.infer<typeof GapPage>;
export const InsightDay = z.object({
  day: z.string(),
  conversations: z.number(),
  questions: z.number(),
  answered: z.number(),
  fallback: z.number(),
  canned: z.number(),
  disclaimed: z.number(),
  /** Replies to small talk (a greeting, thanks): messages that are not counted among `questions`. */
  small_talk: z.number(),
  leads: z.number(),
});
export type InsightDay = z.infer<typeof InsightDay>;

/** An answer a visitor rated down (thumbs down), with the question it answered and the visitor's comment. */
export const UnhelpfulAnswer = z.object({
  conversation_id: z.string(),
  message_id: z.number(),
  /** The visitor's question just before the answer ('' when none was kept). */
  question: z.string(),
  answer: z.string(),
  comment: z.string().nullable(),
  rated_at: z.string(),
  /** An operator has worked through it. */
  reviewed: z.boolean(),
  /** The conversation's trigger point ('' for Default). */
  trigger_point: z.string(),
});
export type UnhelpfulAnswer = z.infer<typeof UnhelpfulAnswer>;

export const Insights = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  totals: InsightDay.omit({ day: true }),
  /** Every day of the range, oldest first (days without conversations count zero). */
  days: z.array(InsightDay),
  /** `question` is how repeats are counted (lower-cased, end punctuation dropped); `asked_as`, its latest ask as the visitor worded it. */
  top_questions: z.array(
    z.object({ question: z.string(), asked_as: z.string(), asked: z.number(), unanswered: z.number() }),
  ),
  /** `closest`: the indexed passages found nearest when it was asked; `pages`: the inventory's pages nearest now, in any status. */
  unanswered_questions: z.array(
    z.object({
      question: z.string(),
      unanswered: z.number(),
      closest: z.array(ClosestPassage),
      /** Why its latest unanswered ask got the fallback, as the answer's trace says; null when not recorded. */
      fallback_reason: z.enum(FALLBACK_REASONS).nullable(),
      /** AI Finetuning left out pages holding the question's key words in that ask. */
      left_out: z.boolean(),
      /**
       * The uploaded files whose passages that ask found and left out, as they are not tagged for
       * the environment it was asked in (the reason `file_not_tagged` when they are why). Empty
       * when none were, and for asks traced before.
       */
      files_not_tagged: z.array(z.string()),
      /** The trigger point of that ask ("" for Default): the agent whose settings and knowledge answered it. */
      trigger_point: z.string(),
      /** That ask as the visitor worded it (`question` is how repeats are counted: lower-cased, end punctuation dropped). */
      asked_as: z.string(),
      /**
       * That ask's own key words no passage of the store held, weightiest first: often what the
       * missing page is about. Empty when the store held them all, and for asks traced before.
       */
      lacked_words: z.array(z.string()),
      pages: z.array(GapPage),
      /**
       * The UTC day of the question's latest ask in the range when that ask was answered, after
       * its last unanswered one: what was missing has been put right since. Null when its latest
       * ask went unanswered, or when the rollup of that day cannot tell (days counted before it was kept).
       */
      answered_since: z.string().nullable(),
    }),
  ),
  leads: z.object({
    captured: z.number(),
    average_score: z.number().nullable(),
    top: z.array(
      z.object({
        conversation_id: z.string(),
        name: z.string(),
        contact: z.string(),
        score: z.number(),
        reasons: z.array(z.string()),
        started_at: z.string(),
      }),
    ),
  }),
  top_sources: z.array(z.object({ url: z.string(), title: z.string(), cited: z.number() })),
  /** Answers rated down in the range (by when they were rated): how many, and the latest first. */
  unhelpful: z.object({ total: z.number(), answers: z.array(UnhelpfulAnswer) }),
  lead_score_rule: z.string(),
});
export type Insights = z.infer<typeof Insights>;
export const InsightExportBody = InsightsQuery.extend({ chart: z.enum(INSIGHT_CHARTS, { error: "Unknown chart" }) });
export const InsightExportResult = z.object({ file_name: z.string(), file_type: z.string(), download_url: z.string() });

export const UserProfilesQuery = z.object({
  search: z.string().trim().max(200).optional(),
  trigger_point: z.string().max(100).optional(),
  environment: z.enum(INSIGHT_ENVIRONMENTS).default("all"),
  leads_only: z.enum(["true", "false"]).optional(),
  page: pageNumber(1),
  /**
   * Keyset paging: the profiles after the one this cursor (a previous page's `next_after`) names,
   * newest first; `page` is then not read and nothing is counted (`total` 0). No profile is skipped
   * or repeated when profiles are captured or deleted between the pages.
   */
  after: Cursor,
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => (LIST_PAGE_SIZES as readonly number[]).includes(n), `page_size must be ${oneOf(LIST_PAGE_SIZES)}`)
    .default(25),
});
/** What a caller sends (page and page_size as numbers). */
export type UserProfilesQuery = Omit<z.input<typeof UserProfilesQuery>, "page" | "page_size"> & {
  page?: number;
  page_size?: number;
};

export const UserProfileRow = z.object({
  conversation_id: z.string(),
  values: z.record(z.string(), z.unknown()),
  lead: z.boolean(),
  score: z.number(),
  reasons: z.array(z.string()),
  questions: z.number(),
  trigger_point: z.string(),
  environment: z.string(),
  started_at: z.string(),
  last_message_at: z.string(),
});
export type UserProfileRow = z.infer<typeof UserProfileRow>;

export const UserProfilesList = z.object({
  data: z.array(UserProfileRow),
  /** The profiles the filters find; 0 on a page read with `after`, which is not counted. */
  total: z.number(),
  /** The cursor of the page after this one (for `after`); null on the last page. */
  next_after: z.string().nullable(),
  /** The client's user profile fields, in model order: the table's columns. */
  fields: z.array(z.string()),
  lead_score_rule: z.string(),
});
export type UserProfilesList = z.infer<typeof UserProfilesList>;

export const UserProfileDetail = z.object({
  profile: UserProfileRow,
  /** Field ⇒ the id of the message its value came from. */
  field_sources: z.record(z.string(), z.number()),
  messages: z.array(
    z.object({
      id: z.number(),
      role: z.string(),
      text: z.string(),
      outcome: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});
export type UserProfileDetail = z.infer<typeof UserProfileDetail>;

export const UserProfileDeleted = z.object({ message: z.string(), deleted_conversations: z.number() });
