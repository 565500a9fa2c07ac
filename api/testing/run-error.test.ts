import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testQuestions, testRuns } from "../db/schema";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { runTests } from "./run-tests";

/*
 * A run that stops says why in one plain line, as a failed job says it to staff: the read-only
 * Client reads it on the run's page, so never the statement the database refused nor its values.
 */

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let viewer: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost({}, {}, { work: false });
  call = apiCaller(host);
  ({ clientUser: viewer, northfield: appId } = await demoCallers(host));
});
afterAll(() => host?.close());

describe("a run the database stops", () => {
  it("says what the database said, not the statement and the answer it was writing", async () => {
    await host.deps.db
      .insert(testQuestions)
      .values({ appId, triggerPoint: "", question: "Where is the secret archive kept?", expectOutcome: "answered" });
    // The database refuses every result: the run's last save fails, and with it the run.
    await host.deps.db.execute(sql`alter table test_results add constraint no_results check (false) not valid`);
    try {
      const [run] = await host.deps.db
        .insert(testRuns)
        .values({ appId, triggerPoint: "", environment: "stage", trigger: "manual", status: "queued" })
        .returning();
      await runTests(run.id, { ...host.deps, workerId: "test" });
      const { status, body } = await call("GET", `/v1/apps/${appId}/test_runs/${run.id}`, { token: viewer });
      expect(status).toBe(200);
      expect(body.status).toBe("failed");
      expect(body.error).toMatch(/^The database refused a statement/);
      expect(body.error).not.toMatch(/insert into|params|secret archive/i);
      expect(body.error).not.toContain("\n");
    } finally {
      await host.deps.db.execute(sql`alter table test_results drop constraint no_results`);
    }
  });
});
