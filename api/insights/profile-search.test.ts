import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserProfilesList } from "@contract";
import { clientApps, conversations, visitorProfiles } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
const ids: Record<string, string> = {};

/** Two visitors whose names were written with the accent as a separate mark and as one letter. */
beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  token = (await signInAs(host, "client.user@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps)).find((a) => a.urlCode === "northfield")!.id;
  for (const [who, name] of [
    ["decomposed", "Jose\u0301 Alvarez"],
    ["composed", "Ren\u00e9e Okafor"],
  ]) {
    ids[who] = randomUUID();
    await host.deps.db.insert(conversations).values({ id: ids[who], appId, environment: "prod" });
    await host.deps.db.insert(visitorProfiles).values({ conversationId: ids[who], appId, values: { name } });
  }
});
afterAll(() => host?.close());

const found = async (search: string) =>
  (
    (await call("GET", `/v1/apps/${appId}/user_profiles?search=${encodeURIComponent(search)}`, { token }))
      .body as UserProfilesList
  ).data.map((p) => p.conversation_id);

describe("searching the user profile store", () => {
  it("finds a value however its accents were encoded, and in capitals", async () => {
    expect(await found("Jos\u00e9")).toEqual([ids.decomposed]);
    expect(await found("JOS\u00c9")).toEqual([ids.decomposed]);
    expect(await found("Rene\u0301e")).toEqual([ids.composed]);
  });
});
