import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { refreshTokens, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let adminToken: string;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  adminToken = (await signInAs(host, "admin@example.com")).user_token;
});
afterAll(() => host?.close());

async function waitForState(queue: string, id: string, state: string) {
  for (let i = 0; i < 400; i++) {
    const { body } = await call("GET", `/v1/jobs/${queue}/${id}`, { token: adminToken });
    if (body.state === state) return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${state}`);
}

describe("jobs through pg-boss", () => {
  it("runs a catalog job for real: expired refresh tokens are purged and the output recorded", async () => {
    // Two dead sign-ins of the client user; the admin's own sign-in stays live (its user token
    // stops working once its sign-in is gone).
    await signInAs(host, "client.user@example.com");
    await signInAs(host, "client.user@example.com");
    const [clientUser] = await host.deps.db.select().from(users).where(eq(users.email, "client.user@example.com"));
    await host.deps.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, clientUser.id));
    const run = await call("POST", "/v1/jobs/purge-refresh-tokens/run", { token: adminToken, body: {} });
    expect(run.status).toBe(202);
    const job = await waitForState("purge-refresh-tokens", run.body.id, "completed");
    expect((job.output as { deleted: number }).deleted).toBeGreaterThanOrEqual(2);
    expect(await host.deps.db.select().from(refreshTokens).where(eq(refreshTokens.userId, clientUser.id))).toEqual([]);
    expect(await host.deps.db.select().from(refreshTokens)).not.toEqual([]);
  });

  it("lists queues with counts by state and schedule, and recent jobs", async () => {
    const { body } = await call("GET", "/v1/jobs/queues", { token: adminToken });
    const purge = body.queues.find((q: { name: string }) => q.name === "purge-refresh-tokens");
    expect(purge.schedule).toBe("17 3 * * *");
    expect(purge.counts.completed).toBeGreaterThanOrEqual(1);
    const jobs = await call("GET", "/v1/jobs?queue=purge-refresh-tokens&state=completed", { token: adminToken });
    expect(jobs.body.jobs[0]).toMatchObject({ queue: "purge-refresh-tokens", state: "completed", data: {} });
  });

  it("leaves pg-boss's own queues out of the recent jobs", async () => {
    const boss = (
      host.deps.jobs as unknown as {
        boss: { createQueue(name: string): Promise<void>; send(name: string, data: object): Promise<string | null> };
      }
    ).boss;
    await boss.createQueue("__pgboss__send-it");
    expect(await boss.send("__pgboss__send-it", { name: "purge-refresh-tokens" })).toBeTruthy();
    const { body } = await call("GET", "/v1/jobs?page_size=100", { token: adminToken });
    expect(body.jobs.length).toBeGreaterThan(0);
    expect(body.jobs.map((job: { queue: string }) => job.queue)).not.toContain("__pgboss__send-it");
    expect(body.total_count).toBe(body.jobs.length);
  });

  it("pages jobs sent at the same moment in one order, none repeated or left out", async () => {
    const boss = (
      host.deps.jobs as unknown as {
        boss: { insert(name: string, jobs: { data: object; startAfter: Date }[]): Promise<unknown> };
      }
    ).boss;
    // One statement: every job of it has the same created_on. Due in an hour, so none is worked meanwhile.
    const startAfter = new Date(Date.now() + 3_600_000);
    await boss.insert(
      "purge-refresh-tokens",
      Array.from({ length: 12 }, (_, i) => ({ data: { batch: i }, startAfter })),
    );
    // A change writes a row anew, at the end of the table on PostgreSQL; with the table's statistics
    // up to date (autovacuum's analyse), the list is read in storage order and then sorted.
    await host.deps.db.execute(
      sql`update pgboss.job set retry_limit = retry_limit + 1 where name = 'purge-refresh-tokens' and data->>'batch' in ('0', '2')`,
    );
    await host.deps.db.execute(sql`analyze pgboss.job`);
    const listed = async (query: string) =>
      (await call("GET", `/v1/jobs?queue=purge-refresh-tokens&state=created&${query}`, { token: adminToken })).body
        .jobs as { id: string; data: { batch?: number } }[];
    const whole = await listed("page_size=100");
    expect(whole.filter((job) => job.data.batch !== undefined)).toHaveLength(12);
    const paged = [];
    for (let page = 1; page <= whole.length; page++) paged.push(...(await listed(`page_size=1&page=${page}`)));
    expect(paged.map((job) => job.id)).toEqual(whole.map((job) => job.id));
  });

  it("refuses a payload the catalog does not accept, and unknown queues", async () => {
    expect((await call("POST", "/v1/jobs/no-such-queue/run", { token: adminToken, body: {} })).status).toBe(404);
    // Names every JavaScript object answers to are not queues either.
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect((await call("POST", `/v1/jobs/${name}/run`, { token: adminToken, body: { data: {} } })).status).toBe(404);
      expect((await call("GET", `/v1/jobs?queue=${name}`, { token: adminToken })).status).toBe(404);
    }
    expect((await call("GET", "/v1/jobs?state=exploded", { token: adminToken })).status).toBe(400);
  });

  it("only retries failed or cancelled jobs", async () => {
    const { body } = await call("GET", "/v1/jobs?queue=purge-refresh-tokens&state=completed", { token: adminToken });
    const retry = await call("POST", `/v1/jobs/purge-refresh-tokens/${body.jobs[0].id}/retry`, { token: adminToken });
    expect(retry.status).toBe(400);
    expect(retry.body.message).toBe("Only failed or cancelled jobs can be retried; this one is completed");
  });

  it("keeps the dashboard to staff: client users get 403", async () => {
    const { user_token } = await signInAs(host, "client.admin@example.com");
    expect((await call("GET", "/v1/jobs/queues", { token: user_token })).status).toBe(403);
    expect((await call("POST", "/v1/jobs/purge-refresh-tokens/run", { token: user_token, body: {} })).status).toBe(403);
  });
});
