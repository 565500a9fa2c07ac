import { eq } from "drizzle-orm";
import { websites } from "../../db/schema";
import type { WorkerDeps } from "../../deps";
import { requestStatus } from "./request-status";
import { updateSitemapDiff } from "./refresh-sitemap";

/**
 * After a website's sitemap was read: every page it listed asked to be indexed, and the indexing
 * started, as Index All does. For a website whose pages need no review: the bundled demo site at
 * the first start. While another worker still reads the sitemap, this throws, so the job tries
 * again once it is read.
 */
export async function indexEveryPage(websiteId: number, deps: WorkerDeps) {
  const [website] = await deps.db
    .select({ appId: websites.appId, status: websites.status })
    .from(websites)
    .where(eq(websites.id, websiteId));
  if (!website) return { indexing: "website gone" };
  if (website.status === "pending_sitemap_generation")
    throw new Error("Its sitemap is still being read: its pages are asked for after");
  if (website.status !== "sitemap_generated") return { indexing: `none, the website is ${website.status}` };
  const { updated } = await requestStatus(website.appId, { websiteId }, "to_be_indexed", false, deps);
  await updateSitemapDiff(websiteId, deps);
  await deps.jobs.send("website-process", { websiteId });
  return { indexing: updated };
}
