import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, testQuestions, testRuns } from "../db/schema";
import { isUniqueViolation } from "../db/errors";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { queueRunsAfterChange } from "./auto-runs";

/**
 * One waiting run per agent and environment, kept by the database: asked for at the same moment
 * by many callers and by changes, on PGlite and (in the PostgreSQL lane) on PostgreSQL. Jobs are
 * not handled here, so what was queued stays queued to be counted.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost({}, {}, { work: false });
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  // Changes queue runs only for agents with test questions.
  await host.deps.db
    .insert(testQuestions)
    .values({ appId, triggerPoint: "admissions", question: "When is the deadline?", expectText: "January 15" });
});
afterAll(() => host?.close());

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
const waitingRuns = () =>
  host.deps.db
    .select()
    .from(testRuns)
    .where(and(eq(testRuns.appId, appId), eq(testRuns.status, "queued")));

describe("asking for runs at the same moment", () => {
  it("queues one run per environment for 50 callers and the changes beside them, and answers every caller its id", async () => {
    const ask = (environment: string) =>
      call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { trigger_point: "admissions", environment } });
    const changes = Array.from({ length: 10 }, () =>
      queueRunsAfterChange(appId, ["admissions"], "controls saved", host.deps),
    );
    const [answers] = await Promise.all([
      Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const environment = i % 2 ? "prod" : "stage";
          return { environment, ...(await ask(environment)) };
        }),
      ),
      Promise.all(changes),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(202));
    const waiting = await waitingRuns();
    expect(waiting.map((run) => run.environment).sort()).toEqual(["prod", "stage"]);
    for (const run of waiting) {
      const answered = answers
        .filter((answer) => answer.environment === run.environment)
        .map((answer) => answer.body.id);
      expect(new Set(answered)).toEqual(new Set([run.id]));
    }
    // Nothing else was queued and removed: these two are every run there is.
    expect((await host.deps.db.select().from(testRuns).where(eq(testRuns.appId, appId))).length).toBe(2);
  });

  it("is a rule of the database: a second waiting run of the same agent and environment is refused", async () => {
    const [stage] = (await waitingRuns()).filter((run) => run.environment === "stage");
    const second = host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "admissions", environment: "stage", trigger: "manual" });
    await expect(second).rejects.toSatisfy(isUniqueViolation);
    // Another agent, or a run no longer waiting, is not held by it.
    await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "studentsuccess", environment: "stage", trigger: "manual" });
    const done = { appId, triggerPoint: "admissions", environment: "stage", trigger: "manual", status: "done" };
    await host.deps.db.insert(testRuns).values(done);
    expect(stage).toBeDefined();
  });
});

describe("the migration that makes it a rule", () => {
  it("keeps the first of runs queued twice before it, so databases holding such runs migrate", async () => {
    const { db } = host.deps;
    const migration = readdirSync(path.resolve("api/db/migrations")).find((name) =>
      name.endsWith("_one_waiting_test_run.sql"),
    )!;
    const statements = readFileSync(path.resolve("api/db/migrations", migration), "utf8").split(
      "--> statement-breakpoint",
    );
    // The table as it was before the migration, holding what the race left behind.
    await db.execute(sql`delete from test_runs`);
    await db.execute(sql`drop index test_runs_one_waiting`);
    await db.execute(sql`alter table test_runs drop column start_after`);
    const inserted = rowsOf<{ id: number }>(
      await db.execute(sql`
      insert into test_runs (app_id, trigger_point, environment, trigger, status) values
        (${appId}, 'admissions', 'stage', 'manual', 'queued'), (${appId}, 'admissions', 'stage', 'manual', 'queued'),
        (${appId}, 'admissions', 'prod', 'manual', 'queued'), (${appId}, 'admissions', 'prod', 'controls saved', 'queued'),
        (${appId}, 'admissions', 'prod', 'manual', 'queued'), (${appId}, 'admissions', 'stage', 'manual', 'done'),
        (${appId}, 'studentsuccess', 'stage', 'manual', 'queued')
      returning id`),
    ).map((row) => Number(row.id));

    for (const statement of statements) await db.execute(sql.raw(statement));

    const kept = await db.select({ id: testRuns.id, status: testRuns.status }).from(testRuns).orderBy(testRuns.id);
    expect(kept).toEqual([
      { id: inserted[0], status: "queued" },
      { id: inserted[2], status: "queued" },
      { id: inserted[5], status: "done" },
      { id: inserted[6], status: "queued" },
    ]);
    const again = db
      .insert(testRuns)
      .values({ appId, triggerPoint: "admissions", environment: "prod", trigger: "manual" });
    await expect(again).rejects.toSatisfy(isUniqueViolation);
  });
});
