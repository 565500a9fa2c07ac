import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, conversations, messages } from "../db/schema";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
const keys = { stage: "", prod: "", harbor: "" };

beforeAll(async () => {
  host = await startTestHost();
  const call = apiCaller(host);
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  const northfield = apps.find((a) => a.urlCode === "northfield")!.id;
  const harbor = apps.find((a) => a.urlCode !== "northfield")!.id;
  const keyOf = async (appId: number, env: string) =>
    (await call("GET", `/v1/bot_installs?app_id=${appId}&env=${env}`, { token: admin })).body.key as string;
  keys.stage = await keyOf(northfield, "stage");
  keys.prod = await keyOf(northfield, "prod");
  keys.harbor = await keyOf(harbor, "stage");
});
afterAll(() => host?.close());

/** A visitor's address as the web server established it: each test is its own visitor, so limits stay apart. */
const visitor = (ip: string) => ({ incoming: { ip } });

/** A question through the public chat, read to its end: the conversation, the answer's message id and the question's. */
async function ask(message: string, options: { key?: string; conversation?: string; ip?: string } = {}) {
  const { conversation, answer } = await chatCall(
    host.api,
    { key: options.key ?? keys.stage, message, conversation_id: options.conversation },
    options.ip ?? "203.0.113.1",
  );
  const [question] = await host.deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversation), eq(messages.role, "user"), eq(messages.text, message)));
  return { conversation, answer, question: question.id };
}

/** Rates like the widget does, from another site. */
async function rate(body: Record<string, unknown>, ip = "203.0.113.1") {
  const response = await host.api.request(
    "/v1/chat/feedback",
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://www.northfield.example" },
      body: JSON.stringify(body),
    },
    visitor(ip),
  );
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const answerRow = async (id: number) => (await host.deps.db.select().from(messages).where(eq(messages.id, id)))[0];
const counts = async (id: string) => {
  const [row] = await host.deps.db.select().from(conversations).where(eq(conversations.id, id));
  return { up: row.ratedUp, down: row.ratedDown, downUnreviewed: row.downUnreviewed };
};

const NOT_FOUND = { status: 404, body: { message: "This answer is not part of this conversation" } };

describe("a visitor rates an answer", () => {
  it("stores a thumbs up, replaces it by a thumbs down with a comment, and back; the conversation counts its ratings", async () => {
    const { conversation, answer } = await ask("Where is the planetarium?");
    const second = await ask("Is it open on Sundays?", { conversation });

    const up = await rate({ key: keys.stage, conversation_id: conversation, message_id: answer, rating: "up" });
    expect(up).toMatchObject({ status: 200, body: { message: "Thank you for your feedback", rating: "up" } });
    expect(up.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answerRow(answer)).toMatchObject({ rating: "up", comment: null });
    expect((await answerRow(answer)).ratedAt).toBeInstanceOf(Date);
    expect(await counts(conversation)).toEqual({ up: 1, down: 0, downUnreviewed: 0 });

    const down = await rate({
      key: keys.stage,
      conversation_id: conversation,
      message_id: answer,
      rating: "down",
      comment: "  It never says where.  ",
    });
    expect(down).toMatchObject({ status: 200, body: { rating: "down" } });
    expect(await answerRow(answer)).toMatchObject({ rating: "down", comment: "It never says where." });
    expect(await counts(conversation)).toEqual({ up: 0, down: 1, downUnreviewed: 1 });

    // Another answer of the same conversation counts beside it.
    expect(
      (await rate({ key: keys.stage, conversation_id: conversation, message_id: second.answer, rating: "down" }))
        .status,
    ).toBe(200);
    expect(await answerRow(second.answer)).toMatchObject({ rating: "down", comment: null });
    expect(await counts(conversation)).toEqual({ up: 0, down: 2, downUnreviewed: 2 });

    // A thumbs up keeps no comment: the comment was about what was wrong.
    expect(
      (
        await rate({
          key: keys.stage,
          conversation_id: conversation,
          message_id: answer,
          rating: "up",
          comment: "Never mind",
        })
      ).status,
    ).toBe(200);
    expect(await answerRow(answer)).toMatchObject({ rating: "up", comment: null });
    expect(await counts(conversation)).toEqual({ up: 1, down: 1, downUnreviewed: 1 });
  });

  it("puts an answer back in the team's queue when its visitor says something new after a review", async () => {
    const { conversation, answer } = await ask("Where do the shuttle buses stop?", { ip: "203.0.113.40" });
    const northfield = (await host.deps.db.select().from(conversations).where(eq(conversations.id, conversation)))[0]
      .appId;
    const admin = (await signInAs(host, "admin@example.com")).user_token;
    const review = () =>
      apiCaller(host)("POST", `/v1/apps/${northfield}/conversations/${conversation}/messages/${answer}/review`, {
        token: admin,
        body: { reviewed: true },
      });
    const rated = (rating: string, comment?: string) =>
      rate({ key: keys.stage, conversation_id: conversation, message_id: answer, rating, comment }, "203.0.113.40");

    await rated("down", "Wrong stop");
    expect((await review()).status).toBe(200);
    expect(await counts(conversation)).toEqual({ up: 0, down: 1, downUnreviewed: 0 });
    // The same rating and comment sent again (a second click) says nothing new.
    await rated("down", "Wrong stop");
    expect(await answerRow(answer)).toMatchObject({ reviewed: true, reviewedBy: "admin@example.com" });
    // A new comment is new feedback.
    await rated("down", "Still the wrong stop");
    expect(await answerRow(answer)).toMatchObject({ reviewed: false, reviewedBy: null, reviewedAt: null });
    expect(await counts(conversation)).toEqual({ up: 0, down: 1, downUnreviewed: 1 });
    // So is a thumbs down after a reviewed thumbs up.
    await rated("up");
    expect((await review()).status).toBe(200);
    await rated("down");
    expect(await counts(conversation)).toEqual({ up: 0, down: 1, downUnreviewed: 1 });
  });

  it("is documented in the OpenAPI document as a public call", async () => {
    const document = await (await host.api.request("/v1/openapi.json")).json();
    const operation = document.paths["/v1/chat/feedback"].post;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.requestBody.content["application/json"].schema.properties)).toEqual([
      "key",
      "conversation_id",
      "message_id",
      "rating",
      "comment",
    ]);
    expect(operation.responses["200"].content["application/json"].schema.properties.rating.enum).toEqual([
      "up",
      "down",
    ]);
  });
});

describe("what cannot be rated, and loses nothing", () => {
  it("refuses a visitor's own question: only answers are rated", async () => {
    const { conversation, question, answer } = await ask("Do you have a rowing club?", { ip: "203.0.113.2" });
    const refused = await rate(
      { key: keys.stage, conversation_id: conversation, message_id: question, rating: "down" },
      "203.0.113.2",
    );
    expect(refused).toMatchObject({ status: 422, body: { message: "Only answers can be rated" } });
    expect(await answerRow(question)).toMatchObject({ rating: null, ratedAt: null });
    expect(await answerRow(answer)).toMatchObject({ rating: null });
  });

  it("answers one 404 for unknown ids, another conversation's answer, another environment's and another client's, and changes nothing", async () => {
    const ip = "203.0.113.3";
    const mine = await ask("When does the library open?", { ip });
    const theirs = await ask("When does the gym open?", { ip: "198.51.100.3" });
    const production = await ask("When does the pool open?", { key: keys.prod, ip });
    const harbor = await ask("Do you ship to Canada?", { key: keys.harbor, ip });
    expect(
      (await rate({ key: keys.stage, conversation_id: mine.conversation, message_id: mine.answer, rating: "up" }, ip))
        .status,
    ).toBe(200);

    const attempts = [
      // A conversation nobody started, and an id no message has.
      { key: keys.stage, conversation_id: "6f1c2a8e-4b7d-4c1e-9a3f-2d5b8e7c1a90", message_id: mine.answer },
      { key: keys.stage, conversation_id: mine.conversation, message_id: 2_000_000_000 },
      // Another visitor's answer, named with this visitor's conversation, and the other way round.
      { key: keys.stage, conversation_id: mine.conversation, message_id: theirs.answer },
      { key: keys.stage, conversation_id: theirs.conversation, message_id: mine.answer },
      // Another client's conversation and answer through this client's key, and this client's through theirs.
      { key: keys.stage, conversation_id: harbor.conversation, message_id: harbor.answer },
      { key: keys.harbor, conversation_id: mine.conversation, message_id: mine.answer },
      // The production conversation through the sandbox key.
      { key: keys.stage, conversation_id: production.conversation, message_id: production.answer },
    ];
    for (const attempt of attempts) {
      expect(await rate({ ...attempt, rating: "down", comment: "Wrong" }, ip), JSON.stringify(attempt)).toMatchObject(
        NOT_FOUND,
      );
    }
    expect(await answerRow(mine.answer)).toMatchObject({ rating: "up", comment: null });
    for (const other of [theirs, production, harbor])
      expect(await answerRow(other.answer)).toMatchObject({ rating: null, comment: null });
    expect(await counts(harbor.conversation)).toEqual({ up: 0, down: 0, downUnreviewed: 0 });
    // Each the same answer: the bodies tell nothing apart.
    const bodies = new Set<string>();
    for (const attempt of attempts) bodies.add(JSON.stringify((await rate({ ...attempt, rating: "up" }, ip)).body));
    expect([...bodies]).toEqual([JSON.stringify(NOT_FOUND.body)]);
  });

  it("refuses an oversize comment, a control character, a bad rating or id with a 400 naming the field, and a body too large unread", async () => {
    const ip = "203.0.113.4";
    const { conversation, answer } = await ask("Is there a shuttle bus?", { ip });
    expect(
      (
        await rate(
          { key: keys.stage, conversation_id: conversation, message_id: answer, rating: "down", comment: "Too vague" },
          ip,
        )
      ).status,
    ).toBe(200);
    const base = { key: keys.stage, conversation_id: conversation, message_id: answer, rating: "down" };

    const long = await rate({ ...base, comment: "x".repeat(501) }, ip);
    expect(long).toMatchObject({
      status: 400,
      body: { errors: { comment: ["Keep comments to at most 500 characters"] } },
    });
    const control = await rate({ ...base, comment: "Ring the bell\u0007" }, ip);
    expect(control).toMatchObject({
      status: 400,
      body: {
        message: "Invalid comment: Contains a control character",
        errors: { comment: ["Contains a control character"] },
      },
    });
    expect(control.headers.get("access-control-allow-origin")).toBe("*");
    expect(await rate({ ...base, rating: "meh" }, ip)).toMatchObject({
      status: 400,
      body: { errors: { rating: ["rating must be up or down"] } },
    });
    expect(await rate({ ...base, message_id: "12" }, ip)).toMatchObject({
      status: 400,
      body: { errors: { message_id: ["Not a message id"] } },
    });
    expect(await rate({ ...base, conversation_id: "not-a-uuid" }, ip)).toMatchObject({
      status: 400,
      body: { errors: { conversation_id: ["Not a conversation id"] } },
    });
    const malformed = await host.api.request(
      "/v1/chat/feedback",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{" },
      visitor(ip),
    );
    expect(malformed.status).toBe(400);
    // Larger than any rating can be: refused before it is read, readably by the widget.
    const huge = await rate({ ...base, comment: "x".repeat(20_000) }, ip);
    expect(huge).toMatchObject({ status: 413, body: { message: "Keep comments to at most 500 characters" } });
    expect(huge.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answerRow(answer)).toMatchObject({ rating: "down", comment: "Too vague" });

    // The longest comment allowed, in characters of four bytes each (emoji), still fits.
    const longest = "😀".repeat(250);
    expect((await rate({ ...base, comment: longest }, ip)).status).toBe(200);
    expect((await answerRow(answer)).comment).toBe(longest);
  });

  it("refuses a key nobody issued", async () => {
    const { conversation, answer } = await ask("Can I park on campus?", { ip: "203.0.113.5" });
    const refused = await rate(
      { key: "sk_nobody-issued-this-key", conversation_id: conversation, message_id: answer, rating: "up" },
      "203.0.113.5",
    );
    expect(refused).toMatchObject({ status: 403, body: { message: "This embed script is not valid" } });
    expect(await answerRow(answer)).toMatchObject({ rating: null });
  });
});

describe("the public endpoint's guards", () => {
  it("limits how often one visitor may rate, per key and address, with Retry-After", async () => {
    const ip = "198.51.100.20";
    const { conversation, answer } = await ask("Is there a chess club?", { ip });
    const body = { key: keys.stage, conversation_id: conversation, message_id: answer, rating: "up" };
    host.deps.config.chatRateLimitPerMinute = 2;
    try {
      expect((await rate(body, ip)).status).toBe(200);
      expect((await rate({ ...body, rating: "down" }, ip)).status).toBe(200);
      const third = await rate({ ...body, rating: "up" }, ip);
      expect(third).toMatchObject({
        status: 429,
        body: { message: "Too many ratings at once; wait a minute and try again" },
      });
      // The window's time left, in whole seconds: the test's requests all fall in its first seconds.
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(50);
      expect(Number(third.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect(third.headers.get("access-control-allow-origin")).toBe("*");
      // The refused rating changed nothing; another visitor is not held up.
      expect(await answerRow(answer)).toMatchObject({ rating: "down" });
      expect((await rate(body, "198.51.100.21")).status).toBe(200);
    } finally {
      host.deps.config.chatRateLimitPerMinute = 30;
    }
  });

  it("refuses an address that sends a minute's allowance of unknown embed keys before looking up more, on every widget call", async () => {
    const ip = "198.51.100.30";
    host.deps.config.chatRateLimitPerMinute = 3;
    const config = (key: string, from = ip) =>
      host.api.request(`/v1/widget/config?key=${key}&trigger_point=`, {}, visitor(from));
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const made = await rate(
          { key: `sk_made-up-${attempt}`, conversation_id: crypto.randomUUID(), message_id: 1, rating: "up" },
          ip,
        );
        expect(made.status).toBe(403);
      }
      // Its minute's allowance is spent: any key from it now, a real one too, on any of the widget's calls.
      for (const answer of [await config(keys.stage), await config("sk_made-up-again")]) {
        expect(answer.status).toBe(429);
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(50);
        expect(await answer.json()).toEqual({
          message: "Too many embed keys that are not valid; wait a minute and try again",
        });
      }
      // Another visitor is not held up.
      expect((await config(keys.stage, "198.51.100.31")).status).toBe(200);
    } finally {
      host.deps.config.chatRateLimitPerMinute = 30;
    }
  });

  it("answers a CORS preflight from any origin", async () => {
    const preflight = await host.api.request("/v1/chat/feedback", {
      method: "OPTIONS",
      headers: {
        origin: "https://www.northfield.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
  });
});
