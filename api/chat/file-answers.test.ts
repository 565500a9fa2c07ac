import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatEvent, ConversationDetail } from "@contract";
import { clientApps } from "../db/schema";
import { readInsights } from "../insights/queries";
import { rebuildInsightDays } from "../insights/rollups";
import { makePdf } from "../../tests/support/pdf";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import { sharedFixture } from "../../tests/support/shared-fixtures";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;
let otherAppId: number;
/** A System Admin's token: the other client's file is uploaded with it. */
let staff: string;
const keys = { stage: "", prod: "" };

beforeAll(async () => {
  host = await startTestHost({ fileMaxBytes: 10 * 1024 * 1024, fileMaxPages: 100 });
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  staff = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  otherAppId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "shopharbor-outfitters")))[0]
    .id;
  for (const env of ["stage", "prod"] as const)
    keys[env] = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=${env}`, { token: admin })).body.key;
});
afterAll(async () => {
  await host?.close();
});

/** Uploads a PDF the way the console does (presign, PUT, complete) and waits until it is indexed. */
async function uploadPdf(name: string, bytes: Buffer, app = appId) {
  const token = app === appId ? admin : staff;
  const presigned = await call("POST", `/v1/files/presigned_urls?app_id=${app}&user_id=1`, {
    token,
    body: { file_names: [name] },
  });
  const target = presigned.body.presigned_urls[0] as { url: string; url_id: number; s3_path: string };
  await host.api.request(target.url, {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: new Uint8Array(bytes),
  });
  await call("POST", "/v1/files/complete_upload", {
    token,
    body: { url_id: target.url_id, s3_path: target.s3_path },
  });
  await until(
    `${name} to be indexed`,
    async () => {
      const files = (await call("GET", `/v1/files?app_id=${app}&search=${encodeURIComponent(name)}`, { token })).body
        .files as { id: number; status: string }[];
      return files.find((f) => f.id === target.url_id)?.status === "indexed";
    },
    30_000,
  );
  return target.url_id;
}

const tag = (fileId: number, tags: string[]) =>
  call("PATCH", `/v1/files/${fileId}`, { token: admin, body: { app_id: appId, tags } });

/** Asks like the widget in one environment; answers the text, outcome and sources, and the answer's stored trace. */
async function ask(environment: "stage" | "prod", message: string) {
  const response = await host.api.request("/v1/chat", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.9" },
    body: JSON.stringify({ key: keys[environment], message }),
  });
  const events = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ChatEvent);
  const start = events.find((e): e is Extract<ChatEvent, { type: "start" }> => e.type === "start")!;
  const done = events.find((e): e is Extract<ChatEvent, { type: "done" }> => e.type === "done")!;
  const text = events
    .filter((e): e is Extract<ChatEvent, { type: "delta" }> => e.type === "delta")
    .map((e) => e.text)
    .join("");
  const trace = async () => {
    const transcript = await call("GET", `/v1/apps/${appId}/conversations/${start.conversation_id}`, { token: admin });
    return (transcript.body as ConversationDetail).messages.find((m) => m.id === done.message_id)!.trace!;
  };
  return { text, outcome: done.outcome, sources: done.sources, trace };
}

/** Every word of the answer is a whole word of the source, in the source's order: no word cut, nothing made up. */
function quotesWholeWords(answer: string, source: string) {
  const flat = ` ${source.replace(/\s+/g, " ")} `;
  return answer
    .split("…")
    .map((part) => part.trim())
    .filter(Boolean)
    .every((part) => flat.includes(` ${part} `) || (flat.includes(` ${part}`) && /[.!?:]$/.test(part)));
}

describe("files and environments", () => {
  it("answers from a file only in the environments it is tagged for; an untagged file answers in neither", async () => {
    const fileId = await uploadPdf(
      "Visitor parking.pdf",
      makePdf([["Visitor parking permits cost five dollars a day at the Lot C kiosk."]], "Visitor parking"),
    );
    const question = "How much do visitor parking permits cost?";
    expect((await ask("stage", question)).outcome).toBe("fallback");
    expect((await ask("prod", question)).outcome).toBe("fallback");

    expect((await tag(fileId, ["sandbox"])).status).toBe(200);
    const sandbox = await ask("stage", question);
    expect(sandbox).toMatchObject({
      outcome: "answered",
      sources: [expect.objectContaining({ title: "Visitor parking" })],
    });
    expect(sandbox.text).toContain("five dollars a day");
    expect((await ask("prod", question)).outcome).toBe("fallback");

    await tag(fileId, ["production"]);
    expect((await ask("prod", question)).text).toContain("five dollars a day");
    expect((await ask("stage", question)).outcome).toBe("fallback");
    await tag(fileId, []);
  });
});

describe("a fallback because the file that answers is not tagged for the environment", () => {
  it("says so in its trace and in Insights, naming the file, where they said the store held nothing", async () => {
    const timetable = (name: string, app?: number) =>
      uploadPdf(
        name,
        makePdf([["The airport shuttle leaves the Main Gate every hour from six in the morning."]], "Shuttle"),
        app,
      );
    const fileId = await timetable("Shuttle timetable.pdf");
    // Another client holds the same text, untagged: its file is never named to this one.
    await timetable("Harbor shuttle notes.pdf", otherAppId);
    await tag(fileId, ["production"]);
    const question = "When does the airport shuttle leave?";

    const inStage = await ask("stage", question);
    expect(inStage.outcome).toBe("fallback");
    expect(await inStage.trace()).toMatchObject({
      fallback_reason: "file_not_tagged",
      files_not_tagged: ["Shuttle timetable.pdf"],
      passages: [],
    });
    // In production, which it is tagged for, it answers, and nothing was left out.
    const inProduction = await ask("prod", question);
    expect(inProduction.text).toContain("every hour from six in the morning");
    expect(await inProduction.trace()).not.toHaveProperty("files_not_tagged");

    // Asked beside a question a tagged file answers, the question it leaves unanswered says the same.
    const gym = await uploadPdf("Gym passes.pdf", makePdf([["A day pass for the gym costs three dollars."]], "Gym"));
    await tag(gym, ["sandbox"]);
    const both = await ask("stage", "How much is a day pass for the gym? What time does the airport shuttle leave?");
    expect(both.outcome).toBe("answered");
    expect((await both.trace()).parts).toMatchObject([
      { outcome: "answered" },
      { outcome: "fallback", fallback_reason: "file_not_tagged", files_not_tagged: ["Shuttle timetable.pdf"] },
    ]);

    // Insights says why each question went unanswered and which file to tag, and says it the same
    // once rebuilt from the stored messages (as after a person's data is deleted).
    const today = new Date().toISOString().slice(0, 10);
    const scope = { appId, from: today, to: today, environment: "all" as const };
    const gaps = async () =>
      (await readInsights(scope, host.deps)).unanswered_questions.filter((q) => q.question.includes("airport shuttle"));
    const live = await gaps();
    expect(live.map((q) => [q.question, q.fallback_reason, q.files_not_tagged])).toEqual(
      expect.arrayContaining([
        ["when does the airport shuttle leave", "file_not_tagged", ["Shuttle timetable.pdf"]],
        ["what time does the airport shuttle leave", "file_not_tagged", ["Shuttle timetable.pdf"]],
      ]),
    );
    await rebuildInsightDays(appId, [today], host.deps.db);
    expect(await gaps()).toEqual(live);
    await tag(fileId, []);
    await tag(gym, []);
  });

  it("keeps the reason it had when the untagged file holds too little of the question to have answered it", async () => {
    const fileId = await uploadPdf(
      "Dining hours.pdf",
      makePdf([["The dining hall serves breakfast from seven."]], "Dining hours"),
    );
    const asked = await ask("stage", "Can I bring my own kayak to the dining hall lake dock?");
    expect(asked.outcome).toBe("fallback");
    const trace = await asked.trace();
    expect(trace.fallback_reason).not.toBe("file_not_tagged");
    expect(trace.files_not_tagged).toContain("Dining hours.pdf");
    await tag(fileId, []);
  });
});

describe("answers quoting PDF passages", () => {
  it("quote whole words and mark a cut with an ellipsis when a passage has no sentence ends", async () => {
    // One long run of words with no full stop, as PDF text often is: the answer must be a window of it.
    const before = Array.from({ length: 60 }, (_, i) => `item${i} shelving`).join(" ");
    const after = Array.from({ length: 60 }, (_, i) => `crate${i} storage`).join(" ");
    const line = `${before} the archive reading room opens every Saturday at nine ${after}`;
    const words = line.split(" ");
    const lines = Array.from({ length: Math.ceil(words.length / 8) }, (_, i) =>
      words.slice(i * 8, i * 8 + 8).join(" "),
    );
    const fileId = await uploadPdf("Archive rules.pdf", makePdf([lines], "Archive rules"));
    await tag(fileId, ["sandbox"]);
    const reply = await ask("stage", "When does the archive reading room open?");
    expect(reply.outcome).toBe("answered");
    expect(reply.text).toContain("the archive reading room opens every Saturday at nine");
    expect(reply.text).toMatch(/^….*…$/);
    expect(quotesWholeWords(reply.text, line)).toBe(true);
    expect(reply.text.split(/\s+/).length).toBeLessThanOrEqual(45);
    await tag(fileId, []);
  });

  const realPdfs = sharedFixture("pdfs");
  it.skipIf(!existsSync(realPdfs))("quote whole words from a real manual (shared fixtures)", async () => {
    const fileId = await uploadPdf("libtasn1.pdf", readFileSync(path.join(realPdfs, "libtasn1.pdf")));
    await tag(fileId, ["sandbox"]);
    const chunks = (await call("GET", `/v1/files/${fileId}/chunks?app_id=${appId}`, { token: admin })).body.chunks as {
      text: string;
    }[];
    for (const question of [
      "What is the header file of libtasn1?",
      "What does asn1Coding generate?",
      "Does libtasn1 handle the REAL type?",
    ]) {
      const reply = await ask("stage", question);
      expect(reply.outcome, question).toBe("answered");
      expect(
        chunks.some((chunk) => quotesWholeWords(reply.text.replace(/^[^:]{1,60}: /, ""), chunk.text)),
        reply.text,
      ).toBe(true);
      // Whole sentences end with their own punctuation; anything cut ends with "…".
      expect(reply.text, question).toMatch(/([.!?:]["'”’)\]]*|…)$/);
    }
  });
});
