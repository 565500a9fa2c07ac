import { sql } from "drizzle-orm";
import type { GapPage } from "@contract";
import type { ApiDeps } from "../deps";
import { lexemesOf, wordsOf } from "../knowledge/words/lexemes";

/** Pages listed per question. */
const PAGES_PER_QUESTION = 3;
/** The question's words looked for in addresses (the rarest-looking first: the longest). */
const MAX_TERMS = 6;
/** A term shorter than this finds no trigram and matches too much. */
const MIN_TERM_CHARS = 3;
/**
 * The addresses read for one term at most. A word in a quarter of a 100,000-page inventory
 * ("student" on a university's site) made each question read and sort 25,000 rows (1.7-2.1 s for
 * the dashboard's ten); a rarer term's pages, the ones that tell questions apart, stay complete.
 */
const CANDIDATES_PER_TERM = 500;

const NOT_INDEXED = new Set([
  "pending_review",
  "pending_sitemap_generation",
  "sitemap_generated",
  "to_be_indexed",
  "sent_for_indexing",
]);
const SKIPPED = new Set(["to_be_skipped", "sent_for_skipping", "skipped"]);
const FAILED = new Set(["failed_to_index", "failed_to_skip", "failed_to_delete"]);

export function gapStateOf(status: string): GapPage["state"] {
  if (status === "indexed") return "indexed";
  if (NOT_INDEXED.has(status)) return "not_indexed";
  if (SKIPPED.has(status)) return "skipped";
  if (FAILED.has(status)) return "failed";
  return "deleted";
}

/** The stems of a question's content words, as addresses spell them (`tuition-fees` holds "tuition" and "fee"). */
export function addressTermsOf(question: string) {
  return lexemesOf(wordsOf(question))
    .filter((term) => term.length >= MIN_TERM_CHARS && /^[\p{L}\p{N}]+$/u.test(term))
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .slice(0, MAX_TERMS);
}

const likeTerm = (term: string) => `%${term}%`;

/**
 * For each unanswered question, the client's pages whose address (or title) holds most of its
 * words, in any status: a page never indexed, skipped by a pattern or failed is often why a
 * question goes unanswered, and its passages cannot be among the closest ones. Addresses are
 * matched through the URL table's trigram index.
 */
export async function closestInventoryPages(appId: number, questions: string[], deps: Pick<ApiDeps, "db">) {
  const found = new Map<string, GapPage[]>();
  await Promise.all(
    questions.map(async (question) => {
      const terms = addressTermsOf(question);
      if (!terms.length) return found.set(question, []);
      const matches = sql.join(
        terms.map((term) => sql`(lower(urls.url || ' ' || urls.title) like ${likeTerm(term)})::int`),
        sql` + `,
      );
      const candidates = sql.join(
        terms.map(
          (term) =>
            sql`(select id from urls where app_id = ${appId} and url ilike ${likeTerm(term)} limit ${CANDIDATES_PER_TERM})`,
        ),
        sql` union `,
      );
      const { rows } = (await deps.db.execute(sql`
      with candidates as (${candidates})
      select urls.id, urls.website_id, urls.url, urls.title, urls.status, urls.metadata->>'error_message' as reason, ${matches} as score
      from urls join candidates on candidates.id = urls.id
      order by score desc, length(urls.url), urls.id limit ${PAGES_PER_QUESTION}`)) as unknown as {
        rows: { id: number; website_id: number; url: string; title: string; status: string; reason: string | null }[];
      };
      found.set(
        question,
        rows.map((row) => ({
          url_id: Number(row.id),
          website_id: Number(row.website_id),
          url: row.url,
          title: row.title,
          status: row.status,
          state: gapStateOf(row.status),
          reason: row.reason || null,
        })),
      );
    }),
  );
  return found;
}
