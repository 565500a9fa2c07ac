import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerTrace } from "@contract";
import { messages, programRecords } from "../db/schema";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let key: string;

beforeAll(async () => {
  host = await startTestHost();
  const { admin, northfield: appId } = await demoCallers(host);
  // A recommendation build's result, as the program model's build stores it.
  await host.deps.db.insert(programRecords).values({
    appId,
    name: "Nursing (BSN)",
    sourceUrl: "https://www.northfield.example/programs/nursing",
    values: { field_of_study: "nursing" },
  });
  key = (
    await apiCaller(host)("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })
  ).body.key;
});
afterAll(() => host?.close());

describe("an answer that names programs", () => {
  it("says in its trace which programs it named, which came from the program model and not from a passage", async () => {
    const asked = await chatCall(host.api, {
      key,
      trigger_point: "admissions",
      message: "Which program would you recommend for nursing?",
    });
    expect(asked.text).toContain("Programs that may fit: Nursing (BSN).");
    const [answer] = await host.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, asked.conversation), eq(messages.role, "assistant")));
    expect((answer.trace as AnswerTrace).programs).toEqual(["Nursing (BSN)"]);
  });

  it("names programs that fit equally well by their names, as the Recommendation screen lists them, whatever order they are stored in", async () => {
    const appId = (await demoCallers(host)).northfield;
    const added = await host.deps.db
      .insert(programRecords)
      .values(
        ["Nursing (MSN)", "Nursing (DNP)", "Nursing (ADN)"].map((name) => ({
          appId,
          name,
          sourceUrl: `https://www.northfield.example/programs/${name.slice(9, 12).toLowerCase()}`,
          values: { field_of_study: "nursing" },
        })),
      )
      .returning();
    // A change writes the row anew, at the end of the table on PostgreSQL.
    await host.deps.db
      .update(programRecords)
      .set({ values: { field_of_study: "nursing", level: "graduate" } })
      .where(eq(programRecords.id, added[0].id));
    const asked = await chatCall(host.api, {
      key,
      trigger_point: "admissions",
      message: "Which program would you recommend for nursing?",
    });
    expect(asked.text).toContain("Programs that may fit: Nursing (ADN), Nursing (BSN), Nursing (DNP).");
  });
});
