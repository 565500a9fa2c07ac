import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { urls, websites } from "../../db/schema";
import { sweepAbandoned } from "../../jobs/in-hand";
import { heldByLiveWorker } from "../../jobs/leases";
import type { PipelineDeps } from "./pipeline-shared";

/**
 * After a crash: URLs in sent_for_* and sitemap generations held by no live worker (its lease
 * lapsed, or the claim predates leases) go back in line. Answers the websites to process and to
 * discover again. Work of a live worker is never touched, however long it takes.
 * Given the sweeping process's `workerId`, its own URLs that no job of it has in hand go back too:
 * those whose outcome could not be written while the database was away (jobs/in-hand.ts).
 */
export async function takeBackAbandonedUrls(deps: PipelineDeps & { workerId?: string }) {
  const released = await deps.db
    .update(websites)
    .set({ claimedBy: null, updatedAt: new Date() })
    .where(
      and(
        eq(websites.status, "pending_sitemap_generation"),
        sql`${websites.claimedBy} is not null`,
        sql`not ${heldByLiveWorker(websites.claimedBy)}`,
      ),
    )
    .returning({ id: websites.id });
  const result = await sweepAbandoned("urls", urls, deps.workerId, (abandoned) =>
    deps.db.execute(sql`
    update urls set status = case status
        when 'sent_for_indexing' then 'to_be_indexed' when 'sent_for_skipping' then 'to_be_skipped' else 'to_be_deleted' end,
      claimed_by = null, updated_at = now()
    where urls.status in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion') and ${abandoned}
    returning website_id`),
  );
  return {
    toProcess: [
      ...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id))),
    ],
    toDiscover: released.map((w) => w.id),
  };
}

/**
 * Websites waiting for sitemap generation longer than `olderThanSeconds` that no worker has
 * started: their job was lost (a process stopped between saving the website and queueing it).
 */
export async function websitesAwaitingDiscovery(deps: PipelineDeps, olderThanSeconds: number) {
  const cutoff = new Date(Date.now() - olderThanSeconds * 1000);
  const waiting = await deps.db
    .select({ id: websites.id })
    .from(websites)
    .where(
      and(
        eq(websites.status, "pending_sitemap_generation"),
        isNull(websites.claimedBy),
        sql`${websites.updatedAt} <= ${cutoff}`,
      ),
    );
  return waiting.map((w) => w.id);
}

/**
 * The bundled demo site's website (config.demoSiteUrl) when none of its pages was ever asked to be
 * indexed: the start that seeded it queues its reading and indexing once the server answers, and a
 * start stopped in between (killed right after seeding) left it so, while the seed never runs
 * again. Other websites' pages wait for an operator's review; the demo site's never do.
 */
export async function demoSiteNeverIndexed(deps: Pick<PipelineDeps, "db" | "config">) {
  if (!deps.config.demoSiteUrl) return [];
  const found = await deps.db
    .select({ id: websites.id })
    .from(websites)
    .where(
      and(
        eq(websites.url, deps.config.demoSiteUrl),
        inArray(websites.status, ["pending_sitemap_generation", "sitemap_generated"]),
        // Outer column named with its table: Drizzle leaves it bare when a select has no join.
        sql`not exists (select 1 from urls where urls.website_id = websites.id and urls.status <> 'pending_review')`,
      ),
    );
  return found.map((w) => w.id);
}
