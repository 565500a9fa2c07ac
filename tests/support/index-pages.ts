import type { ApiHost } from "../../api/host";
import type { QueueName } from "../../api/jobs/payloads";
import { apiCaller } from "./test-host";
import { until } from "./wait";

interface UrlRow {
  url: string;
  status: string;
  metadata?: { error_message?: string };
}

/** The queues whose jobs crawl and index a website. */
const INDEXING_QUEUES = new Set<string>(["website-discover", "website-process"] satisfies QueueName[]);

/**
 * Adds a website listing exactly `pages` (site_map few_urls), asks for all of them to be indexed
 * through the API, and waits until none is in flight and the indexing jobs have finished. A page
 * that ends anything but indexed fails the caller with each page's status and reason, rather than
 * a bare timeout.
 */
export async function indexPages(host: ApiHost, token: string, appId: number, pages: string[]) {
  const call = apiCaller(host);
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url: pages[0], site_map: "few_urls", urls: pages }] },
  });
  if (created.status !== 200)
    throw new Error(`adding the website failed: ${created.status} ${JSON.stringify(created.body)}`);
  const websiteId = created.body.websites[0].id as number;
  const rows = async () =>
    (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=100`, { token })).body.data as UrlRow[];
  await until("the website's URLs", async () => (await rows()).length === pages.length);
  await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
    token,
    body: { status: "to_be_indexed" },
  });
  const settled = await until(
    "indexing to settle",
    async () => {
      const now = await rows();
      return now.every((row) => !/^(to_be_|sent_for_)/.test(row.status)) && now;
    },
    60_000,
  );
  // A job's last steps follow its pages' statuses (it queues runs of the test questions then): a
  // test that adds questions next must not race them.
  await until("the indexing jobs to finish", async () =>
    (await host.deps.jobs.listQueues())
      .filter((queue) => INDEXING_QUEUES.has(queue.name))
      .every((queue) => queue.counts.created + queue.counts.retry + queue.counts.active === 0),
  );
  const failed = settled.filter((row) => row.status !== "indexed");
  if (failed.length) {
    throw new Error(
      `pages not indexed: ${failed.map((row) => `${row.url} ${row.status} (${row.metadata?.error_message ?? "no reason"})`).join("; ")}`,
    );
  }
  return websiteId;
}
