import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

/** What a failed job's record must never hold: the statement, its values, a stack, a server path. */
const LEAKS = [/select/i, /params/i, /\bat\s/, /\.(ts|mjs|js|c):/, /\/(srv|home|tmp|usr|work|app)\//, /node_modules/];

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let staff: string;
let emptySite: Server;

beforeAll(async () => {
  host = await startTestHost({}, { CRAWL_ALLOW_PRIVATE: "true" });
  call = apiCaller(host);
  staff = (await signInAs(host, "admin@example.com")).user_token;
  // A site with nothing on it: no robots.txt, no sitemap, no pages.
  emptySite = createServer((_req, res) => res.writeHead(404).end("Not found"));
  await new Promise<void>((resolve) => emptySite.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  emptySite?.close();
  await host?.close();
});

type Boss = {
  send(name: string, data: object, options: object): Promise<string>;
  fail(name: string, id: string, error: unknown): Promise<unknown>;
};

describe("a failed job's record", () => {
  it("shows what the database said in one plain line: no statement, values, stack or path of the server", async () => {
    const refused = await host.deps.db.execute(sql`select ${"99999999999"}::int as n`).catch((error: unknown) => error);
    expect(String((refused as Error).message)).toMatch(/^Failed query: select/);
    const boss = (host.deps.jobs as unknown as { boss: Boss }).boss;
    // Held for an hour so no worker takes it, then failed with the database's error as a handler's throw would.
    const id = await boss.send("purge-refresh-tokens", {}, { retryLimit: 0, startAfter: 3600 });
    await boss.fail("purge-refresh-tokens", id, refused);

    const { body: job } = await call("GET", `/v1/jobs/purge-refresh-tokens/${id}`, { token: staff });
    expect(job.state).toBe("failed");
    expect(job.output).toEqual({ message: expect.stringMatching(/^The database refused a statement: .*out of range/) });
    const { body: list } = await call("GET", "/v1/jobs?state=failed", { token: staff });
    const listed = JSON.stringify(list.jobs.find((row: { id: string }) => row.id === id));
    for (const leak of LEAKS) expect(listed).not.toMatch(leak);
  });

  it("says a website without a sitemap failed, at once and once, rather than completed", async () => {
    const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const address = `http://127.0.0.1:${(emptySite.address() as AddressInfo).port}/`;
    const saved = await call("POST", `/v1/apps/${app.id}/websites/create_and_update`, {
      token: staff,
      body: { websites: [{ app_id: app.id, url: address, site_map: "full_website" }] },
    });
    expect(saved.status).toBe(200);
    const websiteId = saved.body.websites[0].id as number;
    const job = await until(
      "the discovery to fail",
      async () => {
        const { body } = await call("GET", "/v1/jobs?queue=website-discover&page_size=100", { token: staff });
        const ours = body.jobs.find((row: { data: { websiteId: number } }) => row.data.websiteId === websiteId);
        return ours && !["created", "active", "retry"].includes(ours.state) && ours;
      },
      30_000,
    );
    expect(job).toMatchObject({
      state: "failed",
      retry_count: 0,
      output: { message: expect.stringMatching(/^No sitemap found/) },
    });
    const { body: websites } = await call("GET", `/v1/apps/${app.id}/websites`, { token: staff });
    expect(websites.websites.find((site: { id: number }) => site.id === websiteId).status).toBe("failed_to_index");
  });

  it("refuses a payload whose id the database could not hold, before anything is queued", async () => {
    const refused = await call("POST", "/v1/jobs/website-process/run", {
      token: staff,
      body: { data: { websiteId: 99_999_999_999 } },
    });
    expect(refused.status).toBe(400);
    const { body } = await call("GET", "/v1/jobs?queue=website-process", { token: staff });
    expect(body.jobs).toEqual([]);
  });
});
