import { describe, expect, it } from "vitest";
import {
  AGENT_MEMORY,
  ALL_CARDS,
  CARD_WIDTH_PX,
  CHANNEL_GROUPS,
  CHOOSE_CLIENT_PATH,
  DATA_STORES,
  ROUTER_AGENT,
  SUB_AGENTS,
  cardLink,
  tooltipText,
  type ArchitectureCard,
  type DiagramScope,
} from "./architecture";

const northfield = { url_code: "northfield", country: "US", market: "us_northfield" };
const clientScope: DiagramScope = {
  client: northfield,
  agentSegment: "admissions",
  triggerPoint: "admissions",
  backoffice: { origin: "http://console.test" },
};
const globalScope: DiagramScope = {
  client: null,
  agentSegment: "admissions",
  triggerPoint: null,
  backoffice: { origin: "http://console.test" },
};

const byTitle = (title: string): ArchitectureCard => {
  const found = ALL_CARDS.find((card) => card.title === title);
  if (!found) throw new Error(`no card titled ${title}`);
  return found;
};

describe("architecture diagram cards", () => {
  it("uses the spec's words as titles", () => {
    expect(CHANNEL_GROUPS.map((group) => group.title)).toEqual(["Students", "University Systems"]);
    expect(CHANNEL_GROUPS.map((group) => group.channels.map((channel) => channel.title))).toEqual([
      ["Chat", "Email"],
      ["Marketing Tools", "Agent Chat", "APIs"],
    ]);
    expect(ROUTER_AGENT.title).toBe("Enrollment AI");
    expect(AGENT_MEMORY.title).toBe("Agent Memory");
    expect(SUB_AGENTS.map((agent) => agent.title)).toEqual([
      "RAG based Q&A",
      "Accuracy & Controls",
      "Student Profiler",
      "Program Recommendations & Personalization",
      "Lead Capture & Scoring",
      "Business Analytics & Feedback Loop",
    ]);
    expect(DATA_STORES.map((store) => store.title)).toEqual(["AI Knowledge Store", "User Profile Store", "Lead Store"]);
    expect(new Set(ALL_CARDS.map((card) => card.title)).size).toBe(ALL_CARDS.length);
  });

  it("gives each of the six sub agents grid width 2", () => {
    expect(SUB_AGENTS).toHaveLength(6);
    for (const agent of SUB_AGENTS) expect(agent.gridWidth, agent.title).toBe(2);
  });

  it("sizes cards 180 px by default, 320 for personalization and 225 for business analytics", () => {
    expect(CARD_WIDTH_PX).toEqual({ default: 180, personalization: 320, businessAnalytics: 225 });
    const widths = Object.fromEntries(ALL_CARDS.map((card) => [card.title, CARD_WIDTH_PX[card.width]]));
    expect(widths["Program Recommendations & Personalization"]).toBe(320);
    expect(widths["Business Analytics & Feedback Loop"]).toBe(225);
    const others = ALL_CARDS.filter(
      (card) =>
        !["Program Recommendations & Personalization", "Business Analytics & Feedback Loop"].includes(card.title),
    );
    for (const card of others) expect(widths[card.title], card.title).toBe(180);
  });

  it("gives every card a tooltip", () => {
    for (const card of ALL_CARDS) expect(card.tooltip.length, card.title).toBeGreaterThan(10);
  });
});

describe("where cards lead", () => {
  const base = "/northfield/agent/admissions";
  const sectionTargets: [string, string][] = [
    ["RAG based Q&A", `${base}/knowledge-store`],
    ["Accuracy & Controls", `${base}/controls`],
    ["Student Profiler", `${base}/user-profiling`],
    ["Program Recommendations & Personalization", `${base}/personalization`],
    ["Lead Capture & Scoring", `${base}/integrations`],
    ["AI Knowledge Store", `${base}/knowledge-store`],
    ["User Profile Store", `${base}/user-profiling/user-profile-data-model`],
    ["Lead Store", `${base}/integrations`],
    ["Chat", `${base}/bot-testing`],
    ["Agent Chat", `${base}/appearance`],
    ["Agent Memory", `${base}/personalization`],
    ["Enrollment AI", `${base}/controls/ai-personality`],
  ];

  it("with a client: each section card links to its page under the agent", () => {
    for (const [title, to] of sectionTargets) {
      expect(cardLink(byTitle(title).target, clientScope), title).toEqual({ kind: "internal", to, needsClient: false });
    }
  });

  it("without a client: section cards send the user to choose a client first, and the tooltip says so", () => {
    for (const [title] of sectionTargets) {
      const link = cardLink(byTitle(title).target, globalScope);
      expect(link, title).toEqual({ kind: "internal", to: CHOOSE_CLIENT_PATH, needsClient: true });
      expect(tooltipText(byTitle(title), link)).toMatch(/No client is selected/);
    }
    expect(CHOOSE_CLIENT_PATH).toBe("/clients");
  });

  it("encodes the client and agent segments of section links", () => {
    const link = cardLink(byTitle("Accuracy & Controls").target, { ...clientScope, agentSegment: "Nameless Code" });
    expect(link).toEqual({ kind: "internal", to: "/northfield/agent/Nameless%20Code/controls", needsClient: false });
  });

  it("business analytics opens the back-office dashboard of the client in a new window, with the agent as trigger point", () => {
    const card = byTitle("Business Analytics & Feedback Loop");
    const link = cardLink(card.target, clientScope);
    expect(link).toEqual({
      kind: "newWindow",
      href: "http://console.test/backoffice/northfield/dashboard?country=us&market=us_northfield&triggerPoint=admissions",
      needsClient: false,
    });
    expect(tooltipText(card, link)).toMatch(/new window/);

    const templated = cardLink(card.target, {
      ...clientScope,
      backoffice: { origin: "http://console.test", template: "https://{url_code}.insights.test" },
    });
    expect(templated).toMatchObject({ href: "https://northfield.insights.test/dashboard?triggerPoint=admissions" });
  });

  it("business analytics without a client leads to the client list (dashboards are per client)", () => {
    const card = byTitle("Business Analytics & Feedback Loop");
    const link = cardLink(card.target, globalScope);
    expect(link).toEqual({ kind: "internal", to: "/clients", needsClient: true });
    expect(tooltipText(card, link)).toMatch(/No client is selected/);
  });

  it("channels nothing in the console configures lead nowhere, with or without a client", () => {
    for (const title of ["Email", "Marketing Tools", "APIs"]) {
      expect(cardLink(byTitle(title).target, clientScope), title).toEqual({ kind: "none" });
      expect(cardLink(byTitle(title).target, globalScope), title).toEqual({ kind: "none" });
    }
  });
});
