import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACE_PASSAGE_CHARS, type ConversationDetail } from "@contract";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, signInAs } from "../../tests/support/test-host";
import { indexedSite } from "../../tests/support/widget-chat";

/*
 * What the chat keeps of a passage is cut to a length counted in UTF-16 units: a cut through an
 * emoji would leave half of it, which the database refuses in JSON, and the visitor would get an
 * error for every question that finds the page. Cuts keep whole characters.
 */
const HEADING = "Parking permits";
/** The passage is its heading's line, then the paragraph: the car lands across the trace's cut. */
const BEFORE_CAR = "Permits cost forty dollars a term and are sold at the campus office. ".repeat(5).slice(0, 283);
const PARAGRAPH = `${BEFORE_CAR}🚗 Bring your car's registration, your student card and a photo of the car when you buy one.`;

let site: Awaited<ReturnType<typeof indexedSite>>;

beforeAll(async () => {
  expect(`${HEADING}\n${BEFORE_CAR}`.length).toBe(TRACE_PASSAGE_CHARS - 1);
  site = await indexedSite([
    {
      path: "/parking.html",
      html: `<!doctype html><html><head><title>Parking</title></head><body><main><h1>${HEADING}</h1><p>${PARAGRAPH}</p></main></body></html>`,
    },
  ]);
}, 120_000);
afterAll(() => site?.close());

describe("a passage with an emoji where the chat cuts it", () => {
  it("is answered, and its trace keeps whole characters", async () => {
    const asked = await chatCall(site.host.api, {
      key: site.key,
      trigger_point: "admissions",
      message: "How much do parking permits cost?",
    });
    expect(asked.outcome).toBe("answered");
    expect(asked.text).toContain("forty dollars");
    const admin = (await signInAs(site.host, "admin@example.com")).user_token;
    const transcript = await apiCaller(site.host)("GET", `/v1/apps/${site.appId}/conversations/${asked.conversation}`, {
      token: admin,
    });
    const answer = (transcript.body as ConversationDetail).messages.find((m) => m.id === asked.answer)!;
    const kept = answer.trace!.passages[0].text;
    expect(kept).toBe(`${HEADING}\n${BEFORE_CAR}`);
    expect(kept).not.toMatch(/\p{Cs}/u);
  });
});
