import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURSOR_MESSAGE, type UserProfilesList } from "@contract";
import { getRequest, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { parseCsv } from "~/lib/csv";
import { userProfilesCsv } from "~/server/user-profiles.server";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;

/**
 * Profiles whose conversations started three to a microsecond, all within a few milliseconds: the
 * id breaks the ties, and a cursor rounded to milliseconds would skip or repeat profiles.
 */
async function addProfiles(count: number, from = 0) {
  for (let n = from; n < from + count; n++) {
    const id = randomUUID();
    await host.deps.db.execute(sql`
      insert into conversations (id, app_id, environment, trigger_point, started_at, last_message_at)
      values (${id}::uuid, ${appId}, 'prod', '',
        timestamptz '2026-03-10 09:00:00.123000+00' + ${Math.floor(n / 3)} * interval '1 microsecond',
        timestamptz '2026-03-10 09:30:00+00')`);
    await host.deps.db.execute(sql`
      insert into visitor_profiles (conversation_id, app_id, values, is_lead)
      values (${id}::uuid, ${appId}, ${JSON.stringify({ email: `visitor${n}@example.com` })}::jsonb, true)`);
  }
}

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ clientUser: token, northfield: appId } = await demoCallers(host));
  await addProfiles(47);
});
afterAll(() => host?.close());

const list = async (query: string) => {
  const answer = await call("GET", `/v1/apps/${appId}/user_profiles?${query}`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as UserProfilesList;
};
const idsOf = (answer: UserProfilesList) => answer.data.map((row) => row.conversation_id);

describe("the User Profile Store's CSV read by keyset", () => {
  it("holds the profiles the list shows, in its order", async () => {
    const shown = idsOf(await list("page_size=1000"));
    expect(shown.length).toBeGreaterThanOrEqual(47);
    const cookie = await signInToConsole(host, "client.user@example.com");
    const request = getRequest("/backoffice/northfield/user_profiles/export", cookie);
    const answer = await settle(() =>
      userProfilesCsv(
        { request, context: testContext(host), params: { urlCode: "northfield" } },
        {
          pageSize: 10,
          maxRows: 1000,
        },
      ),
    );
    expect(
      parseCsv(await answer.text())
        .slice(1)
        .map((row) => row.at(-1)),
    ).toEqual(shown);
  });
});

describe("the user profiles list's cursor", () => {
  it("pages by next_after through every profile once", async () => {
    const shown = idsOf(await list("page_size=1000"));
    const read: string[] = [];
    let after: string | null = null;
    do {
      const page: UserProfilesList = await list(`page_size=10${after ? `&after=${after}` : ""}`);
      read.push(...idsOf(page));
      after = page.next_after;
    } while (after);
    expect(read).toEqual(shown);
  });

  it("goes on after a profile deleted between two pages, losing neither the profile after it nor any other", async () => {
    const shown = idsOf(await list("page_size=1000"));
    const first = await list("page_size=10");
    const deleted = await call("DELETE", `/v1/apps/${appId}/user_profiles/${shown[9]}`, { token: await adminToken() });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const second = await list(`page_size=10&after=${first.next_after}`);
    expect(idsOf(second)).toEqual(shown.slice(10, 20));
  });

  it("does not give again a profile of the page before when one is captured meanwhile", async () => {
    const first = await list("page_size=10");
    await addProfiles(3, 1000);
    const second = await list(`page_size=10&after=${first.next_after}`);
    const now = idsOf(await list("page_size=1000"));
    expect(now.slice(3, 13)).toEqual(idsOf(first));
    expect(idsOf(second)).toEqual(now.slice(13, 23));
    expect(second.total).toBe(0);
  });

  const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  it.each([
    ["not base64url", "abc$def"],
    ["too long", "A".repeat(301)],
    ["not JSON", Buffer.from("{oops").toString("base64url")],
    ["a day that is not one", encoded(["2026-02-30T09:00:00.123000Z", "00000000-0000-4000-8000-000000000000"])],
    ["not an id", encoded(["2026-03-10T09:00:00.123000Z", "x"])],
  ])("answers 400 with a message for a cursor %s", async (_, cursor) => {
    const answer = await call("GET", `/v1/apps/${appId}/user_profiles?after=${cursor}`, { token });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(CURSOR_MESSAGE);
  });
});

const adminToken = async () => (await demoCallers(host)).clientAdmin;
