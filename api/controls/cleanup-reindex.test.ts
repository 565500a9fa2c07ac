import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls } from "../db/schema";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Server;
let base: string;
let token: string;
let appId: number;
let fetchedWhole = 0;

const PAGE = `<!doctype html><html><head><title>Tuition | Northfield</title></head><body><main>
<h1>Tuition</h1><p>Tuition for the academic year is $12,400 per semester for every full-time student.</p>
<p>Payment plans spread the cost of each semester over four monthly payments without interest.</p>
<p class="promo">Families who visit the campus this autumn may enter a draw for a branded hoodie at the welcome desk.</p>
</main></body></html>`;

beforeAll(async () => {
  // A server that names its page with an ETag and answers 304 to a request that sends it back, as most do.
  site = createServer((request, response) => {
    if (request.url !== "/tuition") return void response.writeHead(404).end();
    if (request.headers["if-none-match"] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
    fetchedWhole += 1;
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", etag: '"v1"' }).end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000 });
  token = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(async () => {
  await host?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const pageText = async () =>
  (await host.deps.db.select({ text: chunks.text }).from(chunks).innerJoin(urls, eq(urls.id, chunks.urlId)))
    .map((chunk) => chunk.text)
    .join(" ");

describe("a clean-up rule and the pages indexed before it", () => {
  it("acts on a page already indexed at its next indexing, though the page itself has not changed", async () => {
    const websiteId = await indexPages(host, token, appId, [`${base}/tuition`]);
    expect(await pageText()).toContain("branded hoodie");
    const call = apiCaller(host);
    const saved = await call("POST", "/v1/controls/upsert_finetunings", {
      token,
      body: {
        app_id: appId,
        finetunings: [{ finetuning_type: "html_tags_to_remove", trigger_point: "", metadata: { tags: [".promo"] } }],
      },
    });
    expect(saved.status).toBe(200);
    const before = fetchedWhole;
    // Indexed again as a refresh asks (not forced): the server says the page has not changed.
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed" },
    });
    await until("the page to be indexed again", async () => {
      const [row] = await host.deps.db.select({ status: urls.status }).from(urls);
      const jobs = (await host.deps.jobs.listQueues()).filter((queue) => queue.name === "website-process");
      return (
        row.status === "indexed" &&
        jobs.every((queue) => queue.counts.created + queue.counts.retry + queue.counts.active === 0)
      );
    });
    expect(fetchedWhole).toBe(before + 1);
    const text = await pageText();
    expect(text).toContain("$12,400 per semester");
    expect(text).not.toContain("branded hoodie");
  });
});
