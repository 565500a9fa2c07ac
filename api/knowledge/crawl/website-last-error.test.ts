import type { Server } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clientApps } from "../../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { startLoopbackSite } from "../../../tests/support/loopback-site";
import { until } from "../../../tests/support/wait";
import { addFullWebsite } from "../../../tests/support/websites";

/**
 * A website's last error, shown on the Websites screen, after its sitemap generation or Refresh
 * Sitemap failed: the plain line the jobs screen shows for the job, never the statement, its values,
 * a stack, a path of the server or an address's password. The server's log keeps the whole error.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let staff: string;
let appId: number;
let site: Server;
let base: string;
/** The site's address with a user name and password written into it. */
let withPassword: string;
/** What the site's robots.txt says (none when null) and the pages its /sitemap.xml lists. */
let robots: string | null = null;
let listed: string[] = [];

/** What a website's row, the jobs screen or an answer must never hold. */
const LEAKS = [/s3cret/, /insert into/i, /params/i, /\bat\s/, /\.(ts|mjs|js|c):/, /node_modules/];

beforeAll(async () => {
  ({
    server: site,
    base,
    withPassword,
  } = await startLoopbackSite((req, res) => {
    if (req.url === "/robots.txt" && robots !== null) res.writeHead(200, { "content-type": "text/plain" }).end(robots);
    else if (req.url === "/sitemap.xml")
      res
        .writeHead(200, { "content-type": "application/xml" })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.map((loc) => `<url><loc>${loc}</loc></url>`).join("")}</urlset>`,
        );
    else res.writeHead(404).end("Not found");
  }));
  host = await startTestHost({ crawlAllowPrivate: true });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  staff = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(async () => {
  await host?.close();
  site?.close();
});

const addWebsite = (path: string) => addFullWebsite(call, token, appId, `${base}${path}`);
/** The website as the Websites screen gets it. */
const shown = async (websiteId: number) =>
  (await call("GET", `/v1/apps/${appId}/websites?page_size=100`, { token })).body.websites.find(
    (website: { id: number }) => website.id === websiteId,
  ) as { status: string; last_error: string | null };
/** The website's last job of a queue once it has ended, as the jobs screen shows it. */
const endedJob = (queue: string, websiteId: number) =>
  until(
    `the ${queue} job to end`,
    async () => {
      const { body } = await call("GET", `/v1/jobs?queue=${queue}&page_size=100`, { token: staff });
      const ours = body.jobs.find((row: { data: { websiteId: number } }) => row.data.websiteId === websiteId);
      return ours && !["created", "active", "retry"].includes(ours.state) && ours;
    },
    30_000,
  ) as Promise<{ state: string; output: { message: string } }>;

/** Makes the database refuse to store a page whose address holds `marker`, as a statement refused. */
const refusePages = async (marker: string) => {
  await host.deps.db.execute(
    sql.raw(`create or replace function refuse_marked_page() returns trigger language plpgsql as $$
      begin
        if new.url like '%${marker}%' then raise exception 'page % refused by a rule of this test', new.url; end if;
        return new;
      end $$`),
  );
  await acceptPages();
  await host.deps.db.execute(
    sql`create trigger refuse_marked_page before insert on urls for each row execute function refuse_marked_page()`,
  );
};
const acceptPages = () => host.deps.db.execute(sql`drop trigger if exists refuse_marked_page on urls`);

describe("a website's last error after a sitemap job failed", () => {
  it("is the failed job's plain line when sitemap generation finds no sitemap, the log warned with the whole error", async () => {
    robots = `User-agent: *\nSitemap: ${withPassword}/missing.xml\n`;
    const warned = vi.spyOn(host.deps.log, "warn");
    const websiteId = await addWebsite("/no-sitemap/");
    const job = await endedJob("website-discover", websiteId);
    const website = await shown(websiteId);
    expect(website.status).toBe("failed_to_index");
    expect(website.last_error).toMatch(/^No sitemap found \(http:\/\/127\.0\.0\.1:\d+\/missing\.xml: /);
    expect(website.last_error).toBe(job.output.message);
    for (const leak of LEAKS) expect(website.last_error).not.toMatch(leak);
    const logged = warned.mock.calls.find(
      ([message]) => message === `Sitemap generation of website ${websiteId} failed`,
    );
    // The whole error, with the address as read: a sitemap's address loses its password when robots.txt is read.
    expect((logged?.[1] as Error).message).toBe(`No sitemap found (${base}/missing.xml: HTTP 404)`);
  });

  it("says what the database said when it refused a page, not the statement or its values, the log with the error", async () => {
    robots = null;
    listed = [`${base}/fine`, `${base}/refused-at-discovery`];
    await refusePages("refused-at-discovery");
    const failed = vi.spyOn(host.deps.log, "error").mockImplementation(() => {});
    try {
      const websiteId = await addWebsite("/");
      const job = await endedJob("website-discover", websiteId);
      const website = await shown(websiteId);
      expect(website.status).toBe("failed_to_index");
      expect(website.last_error).toBe(
        `The database refused a statement: page ${base}/refused-at-discovery refused by a rule of this test`,
      );
      expect(job.output.message).toBe(website.last_error);
      for (const leak of LEAKS) expect(website.last_error).not.toMatch(leak);
      const logged = failed.mock.calls.find(
        ([message]) => message === `Sitemap generation of website ${websiteId} failed`,
      );
      expect((logged?.[1] as Error).message).toMatch(/^Failed query:\s+insert into urls/);
    } finally {
      await acceptPages();
    }
  });

  it("reads 'Sitemap refresh: ' and the failed job's line after a Refresh Sitemap failed", async () => {
    robots = null;
    listed = [`${base}/programs`];
    const websiteId = await addWebsite("/programs-site/");
    await until("the sitemap to be read", async () => (await shown(websiteId)).status === "sitemap_generated");

    // The sitemap robots.txt now names is not there.
    robots = `Sitemap: ${withPassword}/moved.xml\n`;
    const warned = vi.spyOn(host.deps.log, "warn");
    expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    const job = await endedJob("sitemap-refresh", websiteId);
    expect(job.state).toBe("failed");
    const { last_error } = await shown(websiteId);
    expect(last_error).toMatch(/^Sitemap refresh: No sitemap found \(http:\/\/127\.0\.0\.1:\d+\/moved\.xml: /);
    expect(last_error).toBe(`Sitemap refresh: ${job.output.message}`);
    for (const leak of LEAKS) expect(last_error).not.toMatch(leak);
    const logged = warned.mock.calls.find(([message]) => message === `Sitemap refresh of website ${websiteId} failed`);
    // The whole error, with the address as read: a sitemap's address loses its password when robots.txt is read.
    expect((logged?.[1] as Error).message).toBe(`No sitemap found (${base}/moved.xml: HTTP 404)`);

    // A statement the database refused: said as the database said it, and the job tried again.
    robots = null;
    listed = [`${base}/programs`, `${base}/refused-at-refresh`];
    await refusePages("refused-at-refresh");
    const failed = vi.spyOn(host.deps.log, "error").mockImplementation(() => {});
    try {
      expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
      await until("the refused refresh's error", async () =>
        (await shown(websiteId)).last_error?.startsWith("Sitemap refresh: The database"),
      );
      await acceptPages();
      const line = `The database refused a statement: page ${base}/refused-at-refresh refused by a rule of this test`;
      expect((await shown(websiteId)).last_error).toBe(`Sitemap refresh: ${line}`);
      expect(failed.mock.calls.some(([message]) => message === `Sitemap refresh of website ${websiteId} failed`)).toBe(
        true,
      );
      // A fault of ours, not the site's: the job is to be tried again, not failed for good.
      const again = await until("the refresh to wait for its next try", async () => {
        const { body } = await call("GET", "/v1/jobs?queue=sitemap-refresh&page_size=100", { token: staff });
        const ours = body.jobs.find((row: { data: { websiteId: number } }) => row.data.websiteId === websiteId);
        return ours?.state !== "active" && ours;
      });
      expect(again).toMatchObject({ state: "retry", output: { message: line } });
    } finally {
      await acceptPages();
    }
  });
});
