import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, websites } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/** GET /v1/apps/:id/websites: pages of a client's websites, with and without a search (queries.ts). */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let otherAppId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  token = (await signInAs(host, "admin@example.com")).user_token;
  [{ id: appId }, { id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values([
      { clientName: "Listing", urlCode: "listing" },
      { clientName: "Elsewhere", urlCode: "elsewhere" },
    ])
    .returning();
  await host.deps.db
    .insert(websites)
    .values([
      ...[
        "https://a.example.edu/",
        "https://b.example.edu/",
        "https://c.example.org/",
        "https://100%25.example.org/",
      ].map((url) => ({ appId, url })),
      { appId: otherAppId, url: "https://other.example.edu/" },
    ]);
});
afterAll(() => host?.close());

const list = async (query: string) => {
  const { status, body } = await call("GET", `/v1/apps/${appId}/websites?${query}`, { token });
  expect(status).toBe(200);
  return { urls: body.websites.map((w: { url: string }) => w.url), total: body.total_count, pages: body.total_pages };
};

describe("a client's websites, a page at a time", () => {
  it("pages through all of them in the order they were added, none of another client's", async () => {
    expect(await list("page=1&page_size=2")).toEqual({
      urls: ["https://a.example.edu/", "https://b.example.edu/"],
      total: 4,
      pages: 2,
    });
    expect(await list("page=2&page_size=2")).toEqual({
      urls: ["https://c.example.org/", "https://100%25.example.org/"],
      total: 4,
      pages: 2,
    });
    expect((await list("page=3&page_size=2")).urls).toEqual([]);
  });

  it("searches the addresses, wildcards taken literally, and pages the matches", async () => {
    expect(await list("query=example.edu&page_size=1")).toEqual({
      urls: ["https://a.example.edu/"],
      total: 2,
      pages: 2,
    });
    expect(await list("query=example.edu&page=2&page_size=1")).toEqual({
      urls: ["https://b.example.edu/"],
      total: 2,
      pages: 2,
    });
    expect(await list(`query=${encodeURIComponent("100%")}`)).toMatchObject({
      urls: ["https://100%25.example.org/"],
      total: 1,
    });
    expect(await list(`query=${encodeURIComponent("%")}`)).toMatchObject({ total: 1 });
    expect(await list("query=nowhere")).toEqual({ urls: [], total: 0, pages: 1 });
  });
});
