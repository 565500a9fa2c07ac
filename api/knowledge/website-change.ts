import type { ApiDeps } from "../deps";
import { changedFields } from "../history/describe";
import { WEBSITE_LABELS } from "../history/readable/client";
import type { Change } from "../history/record";
import { getWebsite } from "./queries";

/** A website's settings as GET answers them: what people chose, not what crawling made of it (status, counts). */
async function websiteSettings(appId: number, websiteId: number, deps: Pick<ApiDeps, "db">) {
  const row = await getWebsite(appId, websiteId, deps);
  if (!row) return null;
  return {
    id: row.id,
    url: row.url,
    site_map: row.siteMap,
    enabled: row.enabled,
    tags: row.tags,
    skip_patterns: row.skipPatterns,
    allowed_patterns: row.allowedPatterns,
  };
}

/** Websites saved or created, for the History: each one's settings before and after. */
export const websitesChange = (appId: number, ids: number[]): Change<{ saved: number[] }> => ({
  appId,
  kind: "website",
  targets: ids.map(String),
  created: ({ saved }) => saved.map(String),
  read: (id, db) => websiteSettings(appId, Number(id), { db }),
  summary: (_, before, after) => {
    const { url } = (after ?? before) as { url: string };
    if (!before) return `Website ${url} added`;
    // Named by the Websites table's columns, as History's lines name them.
    const labels = changedFields(before, after).map((name) => WEBSITE_LABELS[name] ?? name.replace(/_/g, " "));
    return `Website ${url}: ${labels.join(", ")} changed`;
  },
});
