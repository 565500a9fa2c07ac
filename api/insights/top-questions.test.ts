import { afterAll, beforeAll, expect, it } from "vitest";
import { toCsv, type Insights } from "@contract";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

// Fourteen questions asked once each: the ten the dashboard shows are chosen among equals by their text,
// in capitals, accents and other scripts too.
const questions = [
  "¿Cuál es la fecha límite?",
  "Zebra crossing near campus?",
  "apple orchard tours?",
  "Éclair day on campus?",
  "Are dorms co-ed?",
  "Is there a bowling alley?",
  "Can I bring a cat?",
  "When is orientation?",
  "学费是多少？",
  "Where is the velodrome?",
  "Quels sont les frais?",
  "Do you have a marching band?",
  "Is the pool heated?",
  "Who runs the radio station?",
];

beforeAll(async () => {
  host = await startTestHost({ chatRateLimitPerMinute: 1_000 });
  call = apiCaller(host);
  ({ admin, northfield: appId } = await demoCallers(host));
  const key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin }))
    .body.key as string;
  for (const message of questions) await chatCall(host.api, { key, trigger_point: "admissions", message });
}, 60_000);
afterAll(() => host?.close());

it("shows as its top ten the first ten of the longer list its CSV holds, in the same order", async () => {
  const shown = (await call("GET", `/v1/apps/${appId}/insights?environment=all`, { token: admin })).body as Insights;
  expect(shown.top_questions).toHaveLength(10);
  // Each as the visitor worded it, ranked by how repeats are counted.
  for (const { question, asked_as } of shown.top_questions) {
    expect(questions).toContain(asked_as);
    expect(asked_as.toLowerCase()).toContain(question);
  }
  const exported = await call("POST", `/v1/apps/${appId}/insights/export`, {
    token: admin,
    body: { chart: "top_questions", environment: "all" },
  });
  const file = await host.api.request(exported.body.download_url as string);
  // No question holds a line break: the file's lines are its rows, the header first.
  const lines = (await file.text()).split(/\r?\n/).filter(Boolean);
  expect(lines).toHaveLength(1 + 14);
  const shownAsCsv = toCsv([
    ["Question", "Asked", "Unanswered"],
    ...shown.top_questions.map((q) => [q.asked_as, q.asked, q.unanswered]),
  ])
    // Read as text, the file's byte order mark is taken off, as every UTF-8 reader does.
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter(Boolean);
  expect(lines.slice(0, 11)).toEqual(shownAsCsv);
  // The unanswered list too: every one of them got the fallback.
  expect(shown.unanswered_questions.map((q) => q.question)).toEqual(shown.top_questions.map((q) => q.question));
});
