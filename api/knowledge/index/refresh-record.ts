import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { websites, type RefreshRecord } from "../../db/schema";

/** The outcomes a record counts. */
const COUNTED = [
  "checked",
  "unchanged",
  "changed",
  "gone",
  "new",
  "failed",
] as const satisfies readonly (keyof RefreshRecord)[];

/** How a page requested for indexing came out, as a refresh reports it. */
export type PageOutcome = "new" | "changed" | "unchanged" | "not_fetched" | "gone" | "failed";

/**
 * What a page of each outcome adds to its website's record: checked pages were indexed before
 * (not fetched, unchanged, changed or gone); new ones were indexed for the first time.
 */
const ADDS: Record<PageOutcome, readonly (typeof COUNTED)[number][]> = {
  new: ["new"],
  changed: ["checked", "changed"],
  unchanged: ["checked", "unchanged"],
  not_fetched: ["checked", "unchanged"],
  gone: ["checked", "gone"],
  failed: ["failed"],
};

/** A refresh begins (pages requested for indexing): the websites' records start again from nothing. */
export async function startRefreshRecords(websiteIds: number[], deps: { db: Pick<Database, "update"> }) {
  if (!websiteIds.length) return;
  await deps.db
    .update(websites)
    .set({
      // Written as the API answers it (ISO, UTC): `now()` in JSON is written in the session's zone.
      lastRefresh: sql`jsonb_build_object('started_at', ${new Date().toISOString()}::text, ${sql.raw(COUNTED.map((key) => `'${key}', 0`).join(", "))})`,
    })
    .where(inArray(websites.id, websiteIds));
}

/**
 * An update that adds pages' outcomes to their websites' records, from `pages`: rows of
 * (website_id, outcome, n). It runs in the transaction that writes those pages' outcomes, so a
 * process killed mid-refresh loses no page from the count and counts none it did not write; the
 * job that resumes the refresh adds the rest to the same record. It comes last in that
 * transaction: every writer takes the URL rows and their status counts first and the website's
 * row last, so two of them never wait for each other in a circle.
 */
export function addToRefreshRecords(pages: SQL) {
  const outcomesAdding = (key: (typeof COUNTED)[number]) =>
    (Object.keys(ADDS) as PageOutcome[]).filter((outcome) => ADDS[outcome].includes(key));
  const tally = sql.join(
    COUNTED.map(
      (key) =>
        sql`coalesce(sum(pages.n) filter (where pages.outcome in (${sql.join(
          outcomesAdding(key).map((outcome) => sql`${outcome}`),
          sql`, `,
        )})), 0)::int as ${sql.identifier(key)}`,
    ),
    sql`, `,
  );
  const sums = sql.join(
    COUNTED.map(
      (key) =>
        sql`${sql.raw(`'${key}'`)}, coalesce((websites.last_refresh->>${key})::int, 0) + tally.${sql.identifier(key)}`,
    ),
    sql`, `,
  );
  return sql`update websites set last_refresh = websites.last_refresh || jsonb_build_object(${sums})
    from (select pages.website_id, ${tally} from ${pages} as pages where pages.outcome is not null group by pages.website_id) tally
    where websites.id = tally.website_id and websites.last_refresh is not null`;
}

/** Adds `n` pages of one outcome to a website's record, last in the transaction that writes them (`db`). */
export async function addToRefreshRecord(
  db: Pick<Database, "execute">,
  websiteId: number,
  outcome: PageOutcome,
  n = 1,
) {
  if (n === 0) return;
  await db.execute(
    addToRefreshRecords(sql`(select ${websiteId}::int as website_id, ${outcome}::text as outcome, ${n}::int as n)`),
  );
}
