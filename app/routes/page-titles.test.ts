import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { loader as rootLoader, meta as rootMeta } from "~/root";
import { loader as unknownPathLoader } from "./$";
import { loader as clientLoader } from "./$appName";
import { loader as agentLoader } from "./$appName.agent.$agentName";
import { loader as clientDownloadsLoader, meta as clientDownloadsMeta } from "./$appName.admin-downloads";
import { meta as agentLandingMeta } from "./$appName.agent.$agentName._index";
import { meta as agentDownloadsMeta } from "./$appName.agent.$agentName.admin-downloads";
import { meta as appearanceMeta } from "./$appName.agent.$agentName.appearance";
import { meta as botTestingMeta } from "./$appName.agent.$agentName.bot-testing";
import { meta as controlsHubMeta } from "./$appName.agent.$agentName.controls._index";
import { meta as personalityMeta } from "./$appName.agent.$agentName.controls.ai-personality";
import { meta as websitesMeta } from "./$appName.agent.$agentName.knowledge-store.websites";
import { meta as knowledgeStoreHubMeta } from "./$appName.agent.$agentName.knowledge-store._index";
import { meta as personalizationHubMeta } from "./$appName.agent.$agentName.personalization._index";
import { meta as studentProfilingHubMeta } from "./$appName.agent.$agentName.student-profiling._index";
import { meta as userProfilingHubMeta } from "./$appName.agent.$agentName.user-profiling._index";
import { loader as conversationLoader, meta as conversationMeta } from "./$appName.conversations_.$conversationId";
import { meta as globalAgentLandingMeta } from "./agent.$agentName";
import { loader as buildAgentLoader, meta as buildAgentMeta } from "./$appName.build-agent";
import {
  loader as websiteLoader,
  meta as websiteMeta,
} from "./$appName.agent.$agentName.knowledge-store.websites.$websiteId";
import {
  loader as fileChunksLoader,
  meta as fileChunksMeta,
} from "./$appName.agent.$agentName.knowledge-store.files.$fileId.chunks";

let host: Awaited<ReturnType<typeof startTestHost>>;
let cookie: string;
beforeAll(async () => {
  host = await startTestHost();
  cookie = await signInToConsole(host, "admin@example.com");
});
afterAll(() => host?.close());

const CLIENT = "Northfield University";

/**
 * The tab title a page gets: its route's meta called as Remix calls it, with what the root loader
 * answers for the address (the client list) and what the page's own loader answered or threw.
 */
async function titleOf(
  meta: (args: never) => ReturnType<MetaFunction>,
  address: string,
  { params = {}, data, error }: { params?: Record<string, string>; data?: unknown; error?: unknown } = {},
) {
  const root = await loaderJson(rootLoader, {
    request: getRequest(address, cookie),
    context: testContext(host),
    params,
  });
  const { pathname, search } = new URL(address, "http://localhost");
  const match = { id: "root", pathname: "/", data: root, params, handle: undefined, meta: [], error };
  const descriptors = meta({
    data,
    params,
    location: { pathname, search, hash: "", state: null, key: "default" },
    matches: [match],
    error,
  } as never);
  return descriptors?.flatMap((descriptor) => ("title" in descriptor ? [descriptor.title] : []))[0];
}

/** What Remix hands every meta of the page when a loader threw `response`: a route error response. */
async function routeErrorOf(response: Response) {
  return { status: response.status, statusText: response.statusText, internal: false, data: await response.text() };
}

const agent = { appName: "northfield", agentName: "admissions" };

describe("page titles", () => {
  it("names each hub page and its client, at the agent's address and the client's", async () => {
    const hubs: [typeof controlsHubMeta, string, string][] = [
      [controlsHubMeta, "/northfield/agent/admissions/controls", "Controls"],
      [knowledgeStoreHubMeta, "/northfield/agent/admissions/knowledge-store", "AI Knowledge Store"],
      [knowledgeStoreHubMeta, "/northfield/agent/admissions/knowledge%20store", "AI Knowledge Store"],
      [personalizationHubMeta, "/northfield/agent/admissions/personalization", "Personalization"],
      [userProfilingHubMeta, "/northfield/agent/admissions/user-profiling", "User Profiling"],
      [studentProfilingHubMeta, "/northfield/agent/admissions/student-profiling", "Student Profiling"],
      [controlsHubMeta, "/northfield/controls", "Controls"],
      [controlsHubMeta, "/northfield/ai-finetuning/controls", "Controls"],
      [personalizationHubMeta, "/northfield/personalization", "Personalization"],
      [userProfilingHubMeta, "/northfield/user-profiling", "User Profiling"],
      [studentProfilingHubMeta, "/northfield/student-profiling", "Student Profiling"],
    ];
    for (const [meta, address, hub] of hubs) {
      const params = address.includes("/agent/") ? agent : { appName: "northfield" };
      const named = address.includes("/agent/") ? `${hub} · Admissions Assistant · ${CLIENT}` : `${hub} · ${CLIENT}`;
      expect(await titleOf(meta, address, { params }), address).toBe(`${named} · Assistant Console`);
    }
  });

  it("names an agent's page with its agent and client, so two agents' same page tell apart in two tabs", async () => {
    const pages: [(args: never) => ReturnType<MetaFunction>, string, string][] = [
      [appearanceMeta, "appearance", "Appearance"],
      [botTestingMeta, "bot-testing", "AI Testing"],
      [personalityMeta, "controls/ai-personality", "AI Personality"],
      [websitesMeta, "knowledge-store/websites", "Websites"],
    ];
    for (const [meta, page, heading] of pages) {
      for (const [agentName, name] of [
        ["admissions", "Admissions Assistant"],
        ["studentsuccess", "Student Success"],
      ]) {
        const address = `/northfield/agent/${agentName}/${page}`;
        const params = { appName: "northfield", agentName };
        expect(await titleOf(meta, address, { params }), address).toBe(
          `${heading} · ${name} · ${CLIENT} · Assistant Console`,
        );
      }
    }
  });

  it("names Admin Downloads with its client (and agent), and titles it 404 for a client the user does not have", async () => {
    expect(
      await titleOf(clientDownloadsMeta, "/northfield/admin-downloads", { params: { appName: "northfield" } }),
    ).toBe(`Admin Downloads · ${CLIENT} · Assistant Console`);
    expect(
      await titleOf(agentDownloadsMeta, "/northfield/agent/admissions/admin-downloads", {
        params: { appName: "northfield", agentName: "admissions" },
      }),
    ).toBe(`Admin Downloads · Admissions Assistant · ${CLIENT} · Assistant Console`);
    const params = { appName: "nowhere" };
    const unknownClient = await settle(() =>
      clientDownloadsLoader({
        request: getRequest("/nowhere/admin-downloads", cookie),
        context: testContext(host),
        params,
      }),
    );
    expect(unknownClient.status).toBe(404);
    expect(
      await titleOf(clientDownloadsMeta, "/nowhere/admin-downloads", {
        params,
        error: await routeErrorOf(unknownClient),
      }),
    ).toBe("404 Page Not Found · Assistant Console");
  });

  it("names an agent's landing page by the agent's name, as its heading does, then its client", async () => {
    expect(await titleOf(agentLandingMeta, "/northfield/agent/admissions", { params: agent })).toBe(
      `Admissions Assistant architecture · ${CLIENT} · Assistant Console`,
    );
    // With no client in the address, only the address names the agent (the heading says the same).
    expect(await titleOf(globalAgentLandingMeta, "/agent/admissions", { params: { agentName: "admissions" } })).toBe(
      "admissions architecture · Assistant Console",
    );
  });

  it("titles every 404 page in the spec's words: no route, no such client or agent, no such record", async () => {
    const context = testContext(host);
    const notFound = "404 Page Not Found · Assistant Console";
    const unknownPath = await settle(() => Promise.resolve(unknownPathLoader()));
    const unknownClient = await settle(() =>
      clientLoader({ request: getRequest("/nowhere/controls", cookie), context, params: { appName: "nowhere" } }),
    );
    const unknownAgent = await settle(() =>
      agentLoader({
        request: getRequest("/northfield/agent/nobody", cookie),
        context,
        params: { appName: "northfield", agentName: "nobody" },
      }),
    );
    for (const [address, response] of [
      ["/northfield/nope", unknownPath],
      ["/nowhere/controls", unknownClient],
      ["/northfield/agent/nobody", unknownAgent],
    ] as const) {
      expect(response.status, address).toBe(404);
      // These pages show their route's error boundary, under no route of their own with a title: the root's.
      expect(await titleOf(rootMeta, address, { error: await routeErrorOf(response) }), address).toBe(notFound);
    }

    const address = "/northfield/conversations/999999999";
    const params = { appName: "northfield", conversationId: "999999999" };
    const unknownConversation = await settle(() =>
      conversationLoader({ request: getRequest(address, cookie), context, params }),
    );
    expect(unknownConversation.status).toBe(404);
    expect(await titleOf(conversationMeta, address, { params, error: await routeErrorOf(unknownConversation) })).toBe(
      notFound,
    );
  });

  it("titles a page 404 when its own loader finds no such record: an agent to edit, a website, a file", async () => {
    const context = testContext(host);
    const cases: [
      (args: never) => ReturnType<MetaFunction>,
      string,
      Record<string, string>,
      (args: LoaderFunctionArgs) => Promise<unknown>,
    ][] = [
      [buildAgentMeta, "/northfield/build-agent?id=999999999", { appName: "northfield" }, buildAgentLoader],
      [buildAgentMeta, "/northfield/build-agent?id=abc", { appName: "northfield" }, buildAgentLoader],
      [
        websiteMeta,
        "/northfield/agent/admissions/knowledge-store/websites/999999999",
        { ...agent, websiteId: "999999999" },
        websiteLoader,
      ],
      [
        fileChunksMeta,
        "/northfield/agent/admissions/knowledge-store/files/999999999/chunks",
        { ...agent, fileId: "999999999" },
        fileChunksLoader,
      ],
    ];
    for (const [meta, address, params, loader] of cases) {
      const response = await settle(() => loader({ request: getRequest(address, cookie), context, params }));
      expect(response.status, address).toBe(404);
      expect(await titleOf(meta, address, { params, error: await routeErrorOf(response) }), address).toBe(
        "404 Page Not Found · Assistant Console",
      );
    }
  });

  it("keeps the console's name alone for a page that names nothing, and for other errors", async () => {
    expect(await titleOf(rootMeta, "/")).toBe("Assistant Console");
    const forbidden = { status: 403, statusText: "Forbidden", internal: false, data: "" };
    expect(await titleOf(rootMeta, "/", { error: forbidden })).toBe("Assistant Console");
  });
});
