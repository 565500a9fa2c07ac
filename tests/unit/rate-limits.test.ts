import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as loginAction } from "../../app/routes/login";
import { formRequest, settle, testContext } from "../support/console-context";
import { signInAs, startTestHost } from "../support/test-host";
import { clientApps } from "../../api/db/schema";
import { trustProxySetting } from "../../server";

let host: Awaited<ReturnType<typeof startTestHost>>;
let key: string;
const servers: Server[] = [];

/** The API behind Express as server.ts mounts it, with or without a trusted proxy in front. */
async function listen(trustProxy: string | number | null) {
  const app = express();
  if (trustProxy !== null) app.set("trust proxy", trustProxy);
  const listener = getRequestListener(host.api.fetch);
  app.all(/^\/(v1|auth)(\/|$)/, (req, res) => listener(req, res));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (base: string, path: string, body: unknown, forwardedFor?: string) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify(body),
  });

async function statuses(count: number, send: (i: number) => Promise<Response>) {
  const answers: Response[] = [];
  for (let i = 0; i < count; i++) answers.push(await send(i));
  await Promise.all(answers.map((r) => r.body?.cancel()));
  return answers;
}

beforeAll(async () => {
  host = await startTestHost({
    chatRateLimitPerMinute: 3,
    signInLimits: { perAddressPerMinute: 6, perAccountPerMinute: 3 },
  });
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const install = await host.api.request(`/v1/bot_installs?app_id=${app.id}&env=stage&app_name=admissions`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  key = (await install.json()).key;
});
afterAll(async () => {
  for (const server of servers) server.close();
  await host?.close();
});

describe("the chat limit", () => {
  it("ignores X-Forwarded-For without a trusted proxy: rotating it dodges nothing", async () => {
    const base = await listen(null);
    const answers = await statuses(5, (i) =>
      post(base, "/v1/chat", { key, message: `Question ${i}?` }, `198.51.100.${i + 1}`),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    // The rest of the first message's minute: whole seconds, less by however long the five took
    // (exact values are pinned with a clock of their own in api/chat/rate-limit.test.ts).
    const retryAfter = Number(answers[3].headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(45);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("keys on the forwarded address behind a trusted proxy", async () => {
    const base = await listen("loopback");
    const answers = await statuses(5, (i) =>
      post(base, "/v1/chat", { key, message: `Question ${i}?` }, `203.0.113.${i + 1}`),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe("the chat limit over IPv6", () => {
  it("counts a /64 as one visitor: rotating the last half of the address dodges nothing", async () => {
    const base = await listen("loopback");
    const answers = await statuses(5, (i) =>
      post(base, "/v1/chat", { key, message: `Rotated ${i}?` }, `2001:db8:5:6::${(i + 1).toString(16)}a`),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
  });

  it("counts other /64s apart, and an IPv4-mapped address as its IPv4 address", async () => {
    const base = await listen("loopback");
    const networks = await statuses(4, (i) =>
      post(base, "/v1/chat", { key, message: `Network ${i}?` }, `2001:db8:7:${i + 1}::1`),
    );
    expect(networks.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const mapped = await statuses(4, (i) =>
      post(base, "/v1/chat", { key, message: `Mapped ${i}?` }, i % 2 ? "::ffff:198.51.100.200" : "198.51.100.200"),
    );
    expect(mapped.map((r) => r.status)).toEqual([200, 200, 200, 429]);
  });
});

describe("TRUST_PROXY", () => {
  it("reads true as one hop: what a client wrote into X-Forwarded-For before the proxy's entry is not believed", async () => {
    const base = await listen(trustProxySetting("true"));
    // The proxy appends the address it saw (192.0.2.77); the client rotates what it wrote before it.
    const answers = await statuses(5, (i) =>
      post(base, "/v1/chat", { key, message: `Hop ${i}?` }, `203.0.113.${i + 50}, 192.0.2.77`),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
  });

  it("takes hop counts and proxy addresses as Express does, and nothing when unset", () => {
    expect(trustProxySetting(undefined)).toBeNull();
    expect(trustProxySetting("")).toBeNull();
    expect(trustProxySetting("false")).toBeNull();
    expect(trustProxySetting("2")).toBe(2);
    expect(trustProxySetting("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8");
  });
});

describe("sign-in limits at the API", () => {
  it("limits failed sign-ins per account from any address, with Retry-After", async () => {
    const base = await listen("loopback");
    // A different forwarded address each time: only the account count can stop these.
    const answers = await statuses(4, (i) =>
      post(base, "/auth/dev", { email: "nobody-here@example.com" }, `192.0.2.${i + 1}`),
    );
    expect(answers.map((r) => r.status)).toEqual([403, 403, 403, 429]);
    expect(Number(answers[3].headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("never locks a real account out because others tried its address: successful sign-ins are not failures", async () => {
    const base = await listen("loopback");
    const answers = await statuses(8, (i) =>
      post(base, "/auth/dev", { email: "client.user@example.com" }, `192.0.2.${i + 20}`),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it("limits sign-ins per /64 across the addresses in it", async () => {
    const base = await listen("loopback");
    const answers = await statuses(7, (i) =>
      post(base, "/auth/dev", { email: `rotating${i}@example.com` }, `2001:db8:9:9::${i + 1}`),
    );
    expect(answers.slice(0, 6).map((r) => r.status)).toEqual(Array(6).fill(403));
    expect(answers[6].status).toBe(429);
  });

  it("counts a refused refresh token as a failure of that token", async () => {
    const base = await listen("loopback");
    const answers = await statuses(4, (i) =>
      post(base, "/v1/users/generate_access_token", { refresh_token: "the-same-wrong-token" }, `192.0.2.${i + 40}`),
    );
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 429]);
  });

  it("limits sign-ins and refreshes per address, across accounts and routes", async () => {
    const base = await listen(null);
    const answers = await statuses(7, (i) =>
      i % 2
        ? post(base, "/v1/users/generate_access_token", { refresh_token: `not-a-token-${i}` })
        : post(base, "/auth/dev", { email: `someone${i}@example.com` }),
    );
    expect(answers.slice(0, 6).map((r) => r.status)).toEqual([403, 401, 403, 401, 403, 401]);
    expect(answers[6].status).toBe(429);
    expect(Number(answers[6].headers.get("retry-after"))).toBeGreaterThan(0);
    // Google sign-in counts the address before anything else.
    expect((await post(base, "/auth/google", { code: "x" })).status).toBe(429);
  });
});

describe("the console's sign-in form", () => {
  it("answers 429 with Retry-After past the per-address limit, whatever the email", async () => {
    const context = testContext(host, {}, { perAddressPerMinute: 2, perAccountPerMinute: 100 });
    const attempt = (email: string) =>
      settle(() =>
        loginAction({ request: formRequest("/login", { intent: "dev", email, redirectTo: "/" }), context, params: {} }),
      );
    expect((await attempt("nobody1@example.com")).status).toBe(403);
    expect((await attempt("nobody2@example.com")).status).toBe(403);
    const refused = await attempt("admin@example.com");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error[""]).toEqual(["Too many sign-in attempts; wait a minute and try again."]);
  });

  it("answers 429 past the per-account limit of failures from any address", async () => {
    const context = testContext(host, {}, { perAddressPerMinute: 100, perAccountPerMinute: 1 });
    const attempt = () =>
      settle(() =>
        loginAction({
          request: formRequest("/login", { intent: "dev", email: "nobody3@example.com" }),
          context,
          params: {},
        }),
      );
    expect((await attempt()).status).toBe(403);
    context.clientAddress = "192.0.2.200";
    expect((await attempt()).status).toBe(429);
  });

  it("lets the real admin sign in however often others try the address", async () => {
    const context = testContext(host, {}, { perAddressPerMinute: 100, perAccountPerMinute: 2 });
    for (let i = 0; i < 6; i++) {
      context.clientAddress = `192.0.2.${100 + i}`;
      const answer = await settle(() =>
        loginAction({
          request: formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo: "/" }),
          context,
          params: {},
        }),
      );
      expect(answer).toHaveRedirect();
    }
  });
});
