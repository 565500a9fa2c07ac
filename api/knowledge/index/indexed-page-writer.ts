import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { urls } from "../../db/schema";
import { ClaimLost } from "../../jobs/leases";
import type { Chunk } from "./chunk";
import { forgetCorpusStats } from "./corpus-stats";
import { addToRefreshRecords } from "./refresh-record";

/**
 * A page whose new text is ready to be stored: the URL row's new values and its chunks; or, with
 * `chunks` null, a page checked and found unchanged (its title, hash and chunks are kept).
 */
export interface IndexedPage {
  row: Pick<typeof urls.$inferSelect, "id" | "appId" | "url">;
  title: string;
  contentHash: string;
  metadata: Record<string, unknown>;
  chunks: Chunk[] | null;
  /** The page's validators as it answered, for the next fetch. */
  etag?: string | null;
  lastModified?: string | null;
  /** What the page adds to its website's refresh record, counted with its write; none when absent. */
  outcome?: "new" | "changed" | "unchanged";
}

interface Waiting {
  page: IndexedPage;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The most pages written by one statement. */
const MAX_GROUP = 32;
/**
 * How long a finished page waits for others before its statement goes: pages finish a few
 * milliseconds apart, and a statement for eight of them costs the database about a quarter less
 * per page than eight statements (measured on PGlite, docs/decisions/017). Indexing is not
 * latency-bound; a full group goes at once.
 */
const LINGER_MS = 20;

/**
 * Stores indexed pages for one worker, several at a time: while one statement is writing, the
 * pages finished meanwhile wait and go together in the next. One statement marks the URLs
 * `indexed` (only those this worker still holds), replaces their chunks and fires the URL-count
 * triggers once, instead of a five-statement transaction per page. Each page's promise settles
 * when its own write is done: rejected with ClaimLost when another worker took the URL back.
 */
export class IndexedPageWriter {
  private readonly waiting: Waiting[] = [];
  private draining: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly workerId: string,
  ) {}

  write(page: IndexedPage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ page, resolve, reject });
      if (this.waiting.length >= MAX_GROUP) this.lingering?.();
      this.draining ??= this.drain();
    });
  }

  /** Ends the current wait for more pages early (a full group is ready). */
  private lingering: (() => void) | null = null;

  private async drain() {
    if (this.waiting.length < MAX_GROUP) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, LINGER_MS);
        this.lingering = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.lingering = null;
    }
    while (this.waiting.length) {
      const group = this.waiting.splice(0, MAX_GROUP);
      try {
        const held = await writeIndexedPages(
          this.db,
          this.workerId,
          group.map((w) => w.page),
        );
        for (const { page, resolve, reject } of group) {
          if (held.has(page.row.id)) resolve();
          else reject(new ClaimLost(`${page.row.url} was taken back by another worker`));
        }
      } catch (error) {
        for (const { reject } of group) reject(error);
      }
    }
    this.draining = null;
  }
}

/**
 * One statement for a group of pages: the URL rows still claimed by `workerId` become `indexed`
 * with their new title, hash, metadata and validators, checked and changed now (unchanged pages:
 * checked now, the rest kept); their old chunks go and their new ones come in. Their outcomes are
 * added to their websites' refresh records in the same transaction. Rows taken back by another
 * worker are left alone, chunks and counts included. Answers the ids written.
 */
async function writeIndexedPages(db: Database, workerId: string, pages: IndexedPage[]): Promise<Set<number>> {
  const rows = pages.map((p) => ({
    id: p.row.id,
    title: p.title,
    content_hash: p.contentHash,
    metadata: p.metadata,
    etag: p.etag ?? null,
    last_modified: p.lastModified ?? null,
    rewritten: p.chunks !== null,
    outcome: p.outcome ?? null,
  }));
  const pieces = pages.flatMap((p) =>
    (p.chunks ?? []).map((c) => ({
      url_id: p.row.id,
      position: c.position,
      heading_path: c.headingPath,
      text: c.text,
      tsv: c.tsv,
    })),
  );
  // An unchanged page keeps its title, hash and chunks (and its validators when the answer, a 304, sent none).
  const statement = sql`
    with page as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as p(id integer, title text, content_hash text, metadata jsonb, etag text, last_modified text, rewritten boolean, outcome text)
    ), held as (
      update urls set status = 'indexed', metadata = page.metadata,
        title = case when page.rewritten then page.title else urls.title end,
        content_hash = case when page.rewritten then page.content_hash else urls.content_hash end,
        etag = case when page.rewritten then page.etag else coalesce(page.etag, urls.etag) end,
        last_modified = case when page.rewritten then page.last_modified else coalesce(page.last_modified, urls.last_modified) end,
        changed_at = case when page.rewritten then now() else urls.changed_at end,
        indexed_at = now(), checked_at = now(), claimed_by = null, updated_at = now()
      from page where urls.id = page.id and urls.claimed_by = ${workerId}
      returning urls.id, urls.app_id, urls.website_id, page.rewritten, page.outcome
    ), gone as (
      delete from chunks using held where chunks.url_id = held.id and held.rewritten
    ), added as (
      insert into chunks (app_id, url_id, position, heading_path, text, tsv)
      select held.app_id, held.id, piece.position, piece.heading_path, piece.text, piece.tsv::tsvector
      from jsonb_to_recordset(${JSON.stringify(pieces)}::jsonb) as piece(url_id integer, position integer, heading_path jsonb, text text, tsv text)
      join held on held.id = piece.url_id
    )
    select id, website_id, outcome from held`;
  // The pages first, their website's record last: the order every writer of the record keeps.
  const written = await db.transaction(async (tx) => {
    const held = (await tx.execute(statement)) as unknown as {
      rows: { id: number; website_id: number; outcome: string | null }[];
    };
    const counted = held.rows.filter((row) => row.outcome !== null);
    if (counted.length)
      await tx.execute(
        addToRefreshRecords(
          sql`(select * from jsonb_to_recordset(${JSON.stringify(counted.map((row) => ({ ...row, n: 1 })))}::jsonb) as p(website_id integer, outcome text, n integer))`,
        ),
      );
    return held.rows;
  });
  // Relevance weights are measured again on the next question (in this process; others within a minute).
  for (const appId of new Set(pages.filter((p) => p.chunks !== null).map((p) => p.row.appId))) forgetCorpusStats(appId);
  return new Set(written.map((r) => Number(r.id)));
}
