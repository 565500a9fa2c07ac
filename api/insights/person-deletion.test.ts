import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db/rows";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { contactFields } from "../../tests/support/controls";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let clientAdmin: string;
let appId: number;
let key: string;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  const callers = await demoCallers(host);
  clientAdmin = callers.clientAdmin;
  appId = callers.northfield;
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: callers.admin,
    body: contactFields("name", "phone"),
  });
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: callers.admin }))
    .body.key;
});
afterAll(() => host?.close());

/** A new conversation of one message. */
const say = async (message: string) =>
  (await chatCall(host.api, { key, trigger_point: "admissions", message })).conversation;

const conversationsLeft = async (ids: string[]) =>
  rowsOf<{ id: string }>(
    await host.deps.db.execute(
      sql`select id from conversations where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  ).map((row) => String(row.id));

describe("deleting one person on request", () => {
  it("finds their conversations by their phone number however it was written, and no one else's", async () => {
    const first = await say("I'm Pia Lindqvist, my phone is (555) 010-9999. When do applications close?");
    const dashed = await say("My phone is 555-010-9999. Is there a campus tour?");
    const international = await say("My phone is +1 555 010 9999. What does tuition cost?");
    const someoneElse = await say("My phone is (555) 010-8888. Where is the library?");
    const deleted = await call("DELETE", `/v1/apps/${appId}/user_profiles/${first}`, { token: clientAdmin });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.deleted_conversations).toBe(3);
    expect(await conversationsLeft([first, dashed, international, someoneElse])).toEqual([someoneElse]);
  });
});
