import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_SORTS, CURSOR_MESSAGE, type ConversationList } from "@contract";
import { getRequest, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { parseCsv } from "~/lib/csv";
import { exportConversations } from "~/server/conversations.server";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let harbor: number;

/**
 * Conversations started `n` microseconds apart in threes: three at each instant (ties the id
 * breaks), all within a few milliseconds (a cursor rounded to milliseconds would skip or repeat),
 * with 0 to 3 questions (ties of most_questions too).
 */
async function addConversations(app: number, count: number, from = 0) {
  for (let n = from; n < from + count; n++)
    await host.deps.db.execute(sql`
      insert into conversations (id, app_id, environment, trigger_point, started_at, last_message_at, question_count)
      values (${randomUUID()}::uuid, ${app}, 'prod', '',
        timestamptz '2026-03-10 09:00:00.123000+00' + ${Math.floor(n / 3)} * interval '1 microsecond',
        timestamptz '2026-03-10 09:30:00+00', ${n % 4})`);
}

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ clientUser: token, northfield: appId, harbor } = await demoCallers(host));
  await addConversations(appId, 57);
  await addConversations(harbor, 30);
});
afterAll(() => host?.close());

const list = async (query: string) => {
  const answer = await call("GET", `/v1/apps/${appId}/conversations?${query}`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as ConversationList;
};
const idsOf = (answer: ConversationList) => answer.data.map((row) => row.id);

const exported = async (query: string, limits: { pageSize: number; maxRows: number }) => {
  const cookie = await signInToConsole(host, "client.user@example.com");
  const request = getRequest(`/northfield/conversations/export?${query}`, cookie);
  const answer = await settle(() =>
    exportConversations({ request, context: testContext(host), params: { appName: "northfield" } }, limits),
  );
  return { name: answer.headers.get("content-disposition"), rows: parseCsv(await answer.text()).slice(1) };
};

describe("the Conversations CSV read by keyset", () => {
  it.each(CONVERSATION_SORTS)("holds the rows the list shows, in its order, sorted %s", async (sort) => {
    const shown = idsOf(await list(`sort=${sort}&page_size=1000`));
    expect(shown.length).toBeGreaterThanOrEqual(57);
    const file = await exported(`sort=${sort}`, { pageSize: 10, maxRows: 1000 });
    expect(file.rows.map((row) => row.at(-1))).toEqual(shown);
    const cut = await exported(`sort=${sort}`, { pageSize: 10, maxRows: 20 });
    expect(cut.name).toMatch(/-first-20\.csv"/);
    expect(cut.rows.map((row) => row.at(-1))).toEqual(shown.slice(0, 20));
  });
});

describe("the conversations list's cursor", () => {
  it.each(CONVERSATION_SORTS)("pages by next_after through every row once, sorted %s", async (sort) => {
    const shown = idsOf(await list(`sort=${sort}&page_size=1000`));
    const read: string[] = [];
    let after: string | null = null;
    do {
      const page: ConversationList = await list(`sort=${sort}&page_size=10${after ? `&after=${after}` : ""}`);
      read.push(...idsOf(page));
      after = page.next_after;
    } while (after);
    expect(read).toEqual(shown);
  });

  it("goes on after a row deleted between two pages, losing neither that row's next one nor any other", async () => {
    const shown = idsOf(await list("page_size=1000"));
    const first = await list("page_size=10");
    expect(idsOf(first)).toEqual(shown.slice(0, 10));
    await host.deps.db.execute(sql`delete from conversations where id = ${shown[9]}::uuid`);
    const second = await list(`page_size=10&after=${first.next_after}`);
    expect(idsOf(second)).toEqual(shown.slice(10, 20));
  });

  it("does not give again a row of the page before when a conversation starts meanwhile", async () => {
    const first = await list("page_size=10");
    await addConversations(appId, 3, 1000);
    const second = await list(`page_size=10&after=${first.next_after}`);
    const now = idsOf(await list("page_size=1000"));
    // The three started later come first now; the second page goes on where the first ended.
    expect(now.slice(3, 13)).toEqual(idsOf(first));
    expect(idsOf(second)).toEqual(now.slice(13, 23));
  });

  it("says when there is no page after, and does not count a page read by cursor", async () => {
    const all = await list("page_size=1000");
    expect(all.next_after).toBeNull();
    const first = await list("page_size=10");
    expect(first.total).toBe(all.data.length);
    const second = await list(`page_size=10&after=${first.next_after}`);
    expect(second).toMatchObject({ total: 0, total_is_capped: true });
  });

  it("cannot reach another client's rows", async () => {
    // The client's own people cannot read the other client's list at all …
    const theirs = await call("GET", `/v1/apps/${harbor}/conversations`, { token });
    expect(theirs.status).toBe(404);
    // … and a cursor only says where to go on: the rows after it are still this client's.
    const [row] = (
      (await host.deps.db.execute(sql`
        select to_char(started_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id::text as id
        from conversations where app_id = ${harbor} order by started_at desc, id desc limit 1`)) as unknown as {
        rows: { at: string; id: string }[];
      }
    ).rows;
    const cursor = Buffer.from(JSON.stringify(["latest", row.at, row.id])).toString("base64url");
    const after = await list(`page_size=1000&after=${cursor}`);
    const ours = new Set(idsOf(await list("page_size=1000")));
    expect(after.data.length).toBeGreaterThan(0);
    expect(idsOf(after).every((id) => ours.has(id))).toBe(true);
  });

  const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const id = "00000000-0000-4000-8000-000000000000";
  it.each([
    ["not base64url", "abc$def"],
    ["too long", "A".repeat(301)],
    ["not JSON", Buffer.from("{oops").toString("base64url")],
    ["of another shape", encoded({ sort: "latest" })],
    ["of another sort", encoded(["oldest", "2026-03-10T09:00:00.123000Z", id])],
    ["a time without microseconds", encoded(["latest", "2026-03-10T09:00:00.123Z", id])],
    ["a day that is not one", encoded(["latest", "2026-02-30T09:00:00.123000Z", id])],
    ["not an id", encoded(["latest", "2026-03-10T09:00:00.123000Z", "1 or 1=1"])],
    ["a count out of range", encoded(["most_questions", 2 ** 40, "2026-03-10T09:00:00.123000Z", id])],
  ])("answers 400 with a message for a cursor %s", async (_, cursor) => {
    const answer = await call("GET", `/v1/apps/${appId}/conversations?after=${cursor}`, { token });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(CURSOR_MESSAGE);
  });
});
