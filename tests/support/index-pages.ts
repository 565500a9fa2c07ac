import { until } from "./wait";
import type { apiCaller } from "./test-host";

type Caller = ReturnType<typeof apiCaller>;
interface UrlRow {
  url: string;
  status: string;
  metadata?: { error_message?: string };
}

/**
 * Adds a website listing exactly `pages` (site_map few_urls), asks for all of them to be indexed
 * through the API, and waits until none is in flight. A page that ends anything but indexed fails
 * the caller with each page's status and reason, rather than a bare timeout.
 */
export async function indexPages(call: Caller, token: string, appId: number, pages: string[]) {
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
  const failed = settled.filter((row) => row.status !== "indexed");
  if (failed.length) {
    throw new Error(
      `pages not indexed: ${failed.map((row) => `${row.url} ${row.status} (${row.metadata?.error_message ?? "no reason"})`).join("; ")}`,
    );
  }
  return websiteId;
}
