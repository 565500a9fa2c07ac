import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileFields, recommendationBuilds } from "../db/schema";
import { FinalFailure } from "../jobs/final-failure";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { buildRecommendationModel } from "./build";

/*
 * A build that stops says why in one plain line, as a failed job says it to staff: the read-only
 * Client reads it beside the program data model, so never the statement the database refused.
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

describe("a recommendation build the database stops", () => {
  it("says what the database said, not the statement", async () => {
    await host.deps.db.insert(profileFields).values({
      appId,
      modelType: "program_profile",
      name: "Program name",
      definition: "The program's name",
      fieldType: "text",
      group: "Academic",
    });
    const [build] = await host.deps.db.insert(recommendationBuilds).values({ appId }).returning();
    // The database refuses to mark a build completed: the build fails at its last statement.
    await host.deps.db.execute(
      sql`alter table recommendation_builds add constraint never_completed check (state <> 'completed') not valid`,
    );
    try {
      await expect(buildRecommendationModel(build.id, host.deps)).rejects.toBeInstanceOf(FinalFailure);
      const { status, body } = await call("GET", `/v1/apps/${appId}/personalisation_config_details/programs`, {
        token: viewer,
      });
      expect(status).toBe(200);
      expect(body.status.state).toBe("failed");
      expect(body.status.error).toMatch(/^The database refused a statement/);
      expect(body.status.error).not.toMatch(/update "recommendation_builds"|params/i);
    } finally {
      await host.deps.db.execute(sql`alter table recommendation_builds drop constraint never_completed`);
    }
  });
});
