import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  BulkCreateBody,
  LinkAddress,
  NOT_A_LINK_ADDRESS,
  BulkCreateResult,
  CachedChunks,
  CREDENTIALS_IN_ADDRESS,
  hasNoCredentials,
  CachedChunksBody,
  Id,
  IdParam,
  OkResult,
  RefreshDaysBody,
  SitemapRefreshBody,
  StatusCounts,
  UpdateStatusBody,
  UpdateStatusResult,
  UrlRow,
  UrlsList,
  UrlsQuery,
  WebsitesList,
  WebsitesQuery,
  WebsitesUpsertBody,
  WebsitesUpsertResult,
} from "@contract";
import { requireApp, requireFound } from "../auth/permissions";
import { chunks, urls, websites } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { isPrivateHost } from "./crawl/fetcher";
import { addUrls, refreshUrlsCount } from "./crawl/pipeline-shared";
import { SITEMAP_REFRESH_WAIT_SECONDS, sitemapRefreshAsked, updateSitemapDiff } from "./crawl/refresh-sitemap";
import {
  getWebsite,
  listUrls,
  listWebsites,
  statusCounts,
  takesInOtherPages,
  toUrlRow,
  websiteColumns,
  websitesByIds,
} from "./queries";
import { requestStatus } from "./crawl/request-status";
import { pagesOfWebsite } from "./crawl/known-pages";
import { sameSite } from "./crawl/sitemaps";
import { queueRunsAfterChange } from "../testing/auto-runs";
import { recordChange } from "../history/record";
import { recordRefreshDays, recordStatusRequest, recordUrlsAdded } from "./url-requests";
import { websitesChange } from "./website-change";
import { duplicateWebsiteErrors, pageAddress } from "./addresses";

const AppParams = z.object({ appId: IdParam });

/** The first key of the advisory lock a client's websites save holds (the second is the client's id). */
const WEBSITES_SAVE_LOCK = 4_210_517;
const WebsiteParams = z.object({ appId: IdParam, websiteId: IdParam });

/**
 * A link of another host than its website's: the website's crawl never reads such pages (its
 * sitemaps' other hosts are left out too), and its next sitemap refresh would mark the page removed.
 */
function otherHostError(address: string, websiteUrl: string) {
  if (sameSite(address, websiteUrl)) return null;
  return `This page is not on ${new URL(websiteUrl).host}; add a website for ${new URL(address).host} to index it`;
}

/** Addresses the crawler could never fetch are refused when they are entered, not later. */
function privateAddressError(address: string, deps: Pick<ApiDeps, "config">) {
  if (deps.config.crawlAllowPrivate) return null;
  // Compared as the crawler's fetcher compares them: on the parsed address, so "HTTP://127.0.0.1:3000/demo-site"
  // is the demo site it lets through (scheme and host in any case, its root without the slash).
  const parsed = new URL(address);
  if (deps.config.crawlLocalExceptions.some((prefix) => `${parsed.href}/`.startsWith(prefix))) return null;
  if (isPrivateHost(parsed.hostname)) {
    return `${parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase()} is a private or local address, which the crawler does not visit`;
  }
  return null;
}

async function requireWebsite(appId: number, websiteId: number, deps: Pick<ApiDeps, "db">) {
  const website = await getWebsite(appId, websiteId, deps);
  if (!website) throw notFound("Website not found");
  return website;
}

async function startProcessing(websiteIds: number[], deps: ApiDeps) {
  for (const websiteId of websiteIds) await deps.jobs.send("website-process", { websiteId });
}

export function knowledgeRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/websites",
    tag: "Knowledge",
    summary: "The client's websites, paged (page from 1) and searchable by address.",
    params: AppParams,
    query: WebsitesQuery,
    response: WebsitesList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return listWebsites(params.appId, query, deps);
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/websites/create_and_update",
    tag: "Knowledge",
    summary:
      "Creates websites (no id) or updates them (with id). A new website, or a changed address, scan mode or pattern, starts sitemap generation. An address that is already one of the client's websites, or on another row of the save (scheme and host in any case, default port, fragment and a trailing slash ignored), is refused on its row.",
    params: AppParams,
    body: WebsitesUpsertBody,
    response: WebsitesUpsertResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const errors: Record<string, string[]> = {};
      body.websites.forEach((w, i) => {
        if (w.app_id !== params.appId) errors[`websites.${i}.app_id`] = ["app_id must be the client of this path"];
        for (const address of [w.url, ...(w.urls ?? [])]) {
          const problem = privateAddressError(address, deps);
          if (problem) (errors[`websites.${i}.url`] ??= []).push(problem);
        }
      });
      // All rows or none: a row that fails (another client's id, a website deleted meanwhile) leaves
      // every row as it was, rather than earlier rows with new patterns that are never re-discovered.
      const change = websitesChange(
        params.appId,
        body.websites.flatMap((w) => (w.id ? [w.id] : [])),
      );
      const {
        result: { saved, toDiscover, tagsChanged },
      } = await recordChange(deps, caller, change, async (tx) => {
        // One save of a client's websites at a time, so two saves cannot both add the same website.
        await tx.execute(sql`select pg_advisory_xact_lock(${WEBSITES_SAVE_LOCK}, ${params.appId})`);
        const existing = await tx
          .select({ id: websites.id, url: websites.url })
          .from(websites)
          .where(eq(websites.appId, params.appId))
          .orderBy(asc(websites.id));
        for (const [field, messages] of Object.entries(duplicateWebsiteErrors(body.websites, existing)))
          (errors[field] ??= []).push(...messages);
        if (Object.keys(errors).length) throw badRequest("Some websites could not be saved", errors);
        const saved: number[] = [];
        const toDiscover: number[] = [];
        let tagsChanged = false;
        for (const input of body.websites) {
          const values = websiteColumns(input);
          if (input.id) {
            const current = await requireWebsite(params.appId, input.id, { db: tx });
            await tx
              .update(websites)
              .set({ ...values, updatedAt: new Date() })
              .where(eq(websites.id, input.id));
            // Given URLs are taken again whenever they are given, changed or not.
            if (takesInOtherPages(current, values) || Boolean(input.urls)) toDiscover.push(input.id);
            // Tags decide which environments a website answers in.
            if (JSON.stringify(current.tags) !== JSON.stringify(input.tags)) tagsChanged = true;
            saved.push(input.id);
          } else {
            const [created] = await tx
              .insert(websites)
              .values({ ...values, appId: params.appId, addedBy: caller.id })
              .returning({ id: websites.id });
            toDiscover.push(created.id);
            saved.push(created.id);
          }
        }
        // A claim of an earlier discovery is dropped: the one asked for now, with these settings, wins.
        if (toDiscover.length) {
          await tx
            .update(websites)
            .set({ status: "pending_sitemap_generation", claimedBy: null })
            .where(inArray(websites.id, toDiscover));
        }
        return { saved, toDiscover, tagsChanged };
      });
      if (tagsChanged) await queueRunsAfterChange(params.appId, "every agent", "website tags changed", deps);
      // Queued once the rows are committed; a job lost between the two is found again by the
      // recovery of websites waiting for discovery.
      for (const websiteId of toDiscover) await deps.jobs.send("website-discover", { websiteId });
      return { websites: await websitesByIds(params.appId, saved, deps), message: "Ok" };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/websites/:websiteId/urls/update_status",
    tag: "Knowledge",
    summary:
      "Asks for to_be_indexed (force_index re-chunks unchanged pages), to_be_skipped or to_be_deleted on chosen URLs, or on the whole website without url_ids.",
    params: WebsiteParams,
    body: UpdateStatusBody,
    response: UpdateStatusResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const website = await requireWebsite(params.appId, params.websiteId, deps);
      const force = body.force_index === true;
      const result = await requestStatus(
        params.appId,
        { websiteId: params.websiteId, urlIds: body.url_ids },
        body.status,
        force,
        deps,
      );
      await recordStatusRequest(
        deps,
        caller,
        { appId: params.appId, website, status: body.status, force },
        result.addresses,
      );
      await updateSitemapDiff(params.websiteId, deps);
      await startProcessing(result.websiteIds, deps);
      return { message: "Ok", updated: result.updated, in_progress: result.inProgress };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/urls/update_status",
    tag: "Knowledge",
    summary: "The unified drawer's bulk action: the same request on URLs of any website of the client.",
    params: AppParams,
    body: UpdateStatusBody.extend({ url_ids: z.array(Id).min(1, "Choose at least one URL").max(10_000) }),
    response: UpdateStatusResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const force = body.force_index === true;
      const result = await requestStatus(
        params.appId,
        { websiteId: null, urlIds: body.url_ids },
        body.status,
        force,
        deps,
      );
      await recordStatusRequest(
        deps,
        caller,
        { appId: params.appId, website: null, status: body.status, force },
        result.addresses,
      );
      for (const websiteId of result.websiteIds) await updateSitemapDiff(websiteId, deps);
      await startProcessing(result.websiteIds, deps);
      return { message: "Ok", updated: result.updated, in_progress: result.inProgress };
    },
  });

  route({
    method: "post",
    path: "/sitemap_refresh",
    tag: "Knowledge",
    summary: "Re-reads a website's sitemaps and marks its URLs new, removed, changed or unchanged for review.",
    body: SitemapRefreshBody,
    response: OkResult,
    status: 202,
    handler: async ({ body, caller, deps }) => {
      const [found] = await deps.db.select().from(websites).where(eq(websites.id, body.id));
      const website = requireFound(caller, found, "Website not found", "configure");
      if (website.siteMap !== "full_website")
        throw badRequest("This website's pages were given one by one (few URLs): it has no sitemap to refresh");
      // The row says it was asked for until the job has read the sitemaps. One refresh waits per
      // website: asking again meanwhile queues nothing (each refresh reads the site's sitemaps
      // again), unless the one asked for has waited so long that its job must have been lost.
      const record = websites.lastSitemapRefresh;
      const asked = await deps.db
        .update(websites)
        .set({ lastSitemapRefresh: sitemapRefreshAsked() })
        .where(
          and(
            eq(websites.id, website.id),
            sql`(${record} is null or ${record}->>'finished_at' is not null
              or (${record}->>'asked_at')::timestamptz < now() - make_interval(secs => ${SITEMAP_REFRESH_WAIT_SECONDS}))`,
          ),
        )
        .returning({ id: websites.id });
      if (asked.length) await deps.jobs.send("sitemap-refresh", { websiteId: website.id });
      return { message: "Ok" };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/urls/status_counts",
    tag: "Knowledge",
    summary: "How many URLs of the client are in each status.",
    params: AppParams,
    response: StatusCounts,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      return statusCounts(params.appId, deps);
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/websites/:websiteId/urls",
    tag: "Knowledge",
    summary:
      "A website's URLs: page (from 0), page_size, order_by, order, search, status=a,b, sitemap_refresh_review_status=a,b.",
    params: WebsiteParams,
    query: UrlsQuery,
    response: UrlsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      await requireWebsite(params.appId, params.websiteId, deps);
      return listUrls(params.appId, params.websiteId, query, deps);
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/urls",
    tag: "Knowledge",
    summary: "All URLs of the client (the unified drawer), with the same query.",
    params: AppParams,
    query: UrlsQuery,
    response: UrlsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return listUrls(params.appId, null, query, deps);
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/websites/:websiteId/urls/bulk_create",
    tag: "Knowledge",
    summary:
      "Adds URLs to a website (as pending_review). Addresses of one page (host case, fragment) count once; pages the website already has are left as they are. Answers how many were added (created) and how many it already had (existing).",
    params: WebsiteParams,
    body: BulkCreateBody,
    response: BulkCreateResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const website = await requireWebsite(params.appId, params.websiteId, deps);
      const errors: Record<string, string[]> = {};
      body.urls.forEach((address, i) => {
        const problem = !LinkAddress.safeParse(address).success
          ? NOT_A_LINK_ADDRESS
          : // Stored, listed and shown as given: a password in it would be too, as for a website's address.
            !hasNoCredentials(address)
            ? CREDENTIALS_IN_ADDRESS
            : (privateAddressError(address, deps) ?? otherHostError(address, website.url));
        if (problem) errors[`urls.${i}`] = [problem];
      });
      if (Object.keys(errors).length) throw badRequest("Some URLs cannot be added", errors);
      const pages = [...new Set(body.urls.map(pageAddress))];
      const known = await pagesOfWebsite(website.id, body.urls, deps);
      const added = pages.filter((url) => !known.has(url));
      const created = await addUrls(
        website,
        added.map((url) => ({ url })),
        deps,
      );
      await recordUrlsAdded(deps, caller, website, added);
      await refreshUrlsCount(website.id, deps);
      return { message: "Ok", created, existing: known.size };
    },
  });

  route({
    method: "put",
    path: "/v1/apps/:appId/websites/:websiteId/urls/:urlId",
    tag: "Knowledge",
    summary: "Sets a URL's refresh days (1–365).",
    params: z.object({ appId: IdParam, websiteId: IdParam, urlId: IdParam }),
    body: RefreshDaysBody,
    response: UrlRow,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const website = await requireWebsite(params.appId, params.websiteId, deps);
      const [was] = await deps.db
        .select({ refreshDays: urls.refreshDays })
        .from(urls)
        .where(and(eq(urls.id, params.urlId), eq(urls.websiteId, website.id)));
      if (!was) throw notFound("URL not found");
      const [row] = await deps.db
        .update(urls)
        .set({ refreshDays: body.url.refresh_days, updatedAt: new Date() })
        .where(and(eq(urls.id, params.urlId), eq(urls.websiteId, website.id)))
        .returning();
      if (!row) throw notFound("URL not found");
      await recordRefreshDays(deps, caller, website, {
        url: row.url,
        before: was.refreshDays,
        after: row.refreshDays,
      });
      return toUrlRow(row, website.url);
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/websites/:websiteId/urls/fetch_cached_chunks",
    tag: "Knowledge",
    summary:
      "The stored chunks of one URL, in order. `appId` (a number, or its digits as text) is optional and must be the path's client.",
    params: WebsiteParams,
    body: CachedChunksBody,
    response: CachedChunks,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId);
      if (body.appId !== undefined && body.appId !== params.appId)
        throw badRequest("Invalid request body", { appId: ["appId must be the client of this path"] });
      await requireWebsite(params.appId, params.websiteId, deps);
      const [row] = await deps.db
        .select({ id: urls.id })
        .from(urls)
        .where(and(eq(urls.websiteId, params.websiteId), eq(urls.url, body.url)));
      if (!row) throw notFound("URL not found");
      // Position, then id: one writer numbers a page's chunks, and the id keeps the order whole regardless.
      const list = await deps.db
        .select()
        .from(chunks)
        .where(eq(chunks.urlId, row.id))
        .orderBy(asc(chunks.position), asc(chunks.id));
      return {
        url: body.url,
        chunks: list.map((c) => ({ position: c.position, heading_path: c.headingPath, text: c.text })),
      };
    },
  });
}
