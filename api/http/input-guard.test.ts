import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let token: string;

beforeAll(async () => {
  host = await startTestHost();
  token = (await signInAs(host, "client.admin@example.com")).user_token;
});
afterAll(async () => {
  await host?.close();
});

const send = (path: string, body: BodyInit, method = "POST") =>
  host.api.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });

const auth = () => ({ authorization: `Bearer ${token}` });

describe("the API's input guard", () => {
  it("refuses direction controls that would turn a name and its History line around", async () => {
    const refused = await send(
      "/v1/apps/1/test_questions",
      JSON.stringify({ question: "Agent \u202eevil", expect_text: "x", trigger_point: "admissions" }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      errors: { question: ["Contains a text-direction control character (U+202A–U+202E, U+2066–U+2069)"] },
    });
  });

  it("refuses a body whose bytes are not UTF-8 rather than store U+FFFD in their place", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"question":"invalid '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","expect_text":"x"}'),
    ]);
    const refused = await send("/v1/apps/1/test_questions", bytes);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "The request body is not valid UTF-8 text" });
  });

  it("names at most a hundred refused fields, however many the body holds", async () => {
    const refused = await send(
      "/v1/apps/1/test_questions",
      JSON.stringify({ question: Array.from({ length: 5000 }, () => "\u0007") }),
    );
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe("Invalid question.0, question.1, question.2 and 4997 more: Contains a control character");
    expect(Object.keys(body.errors)).toHaveLength(101);
    expect(body.errors._).toEqual(["… and 4900 more fields refused"]);
  });

  // The guard reads JSON bodies (and bodies of no declared type) only: a JSON text declared as
  // another type would reach a route unread, control characters, lengths and all.
  it("refuses a JSON body sent as another type, on every route that reads one, and stores nothing", async () => {
    const body = JSON.stringify({ question: "bell\u0007 and \u202eoverride", expect_outcome: "answered" });
    const before = await (await host.api.request("/v1/apps/1/test_questions", { headers: auth() })).text();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/octet-stream"]) {
      const refused = await host.api.request("/v1/apps/1/test_questions", {
        method: "POST",
        headers: { ...auth(), "content-type": type },
        body,
      });
      expect(refused.status).toBe(415);
      expect(await refused.json()).toEqual({
        message: "Send the request body as JSON (Content-Type: application/json)",
      });
    }
    expect(await (await host.api.request("/v1/apps/1/test_questions", { headers: auth() })).text()).toBe(before);
    const chat = await host.api.request("/v1/chat", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ key: "x", message: "hello\u0007" }),
    });
    expect(chat.status).toBe(415);
    // Declared as JSON with parameters, or not declared at all, the body is read (and guarded) as before.
    const declared = await host.api.request("/v1/apps/1/test_questions", {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json; charset=utf-8" },
      body,
    });
    expect(declared.status).toBe(400);
  });

  it("tells the widget's chat call a body that is not JSON apart from a missing field", async () => {
    const broken = await host.api.request("/v1/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"key":',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ message: "The request body is not valid JSON" });
  });
});
