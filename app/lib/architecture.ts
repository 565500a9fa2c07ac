import type { ClientApp } from "@contract";
import { backofficeUrl } from "./backoffice";

/** The spec's card widths, in pixels. */
export const CARD_WIDTH_PX = { default: 180, personalization: 320, businessAnalytics: 225 } as const;
export type CardWidth = keyof typeof CARD_WIDTH_PX;

/** The spec lays the sub agents out on a 12-column grid where each one spans this many columns. */
export const SUB_AGENT_GRID_WIDTH = 2;

/** The dashboard a business-insights card opens; on the back-office host when a client is known. */
export const DASHBOARD_PAGE = "/dashboard";

/**
 * Where a card leads. A section path is relative to the agent's base path
 * (`/{url_code}/agent/{agent}`), so it only exists once a client is chosen.
 */
export type CardTarget = { kind: "section"; path: string } | { kind: "dashboard" } | { kind: "none" };

export interface ArchitectureCard {
  title: string;
  tooltip: string;
  width: CardWidth;
  target: CardTarget;
}

export interface SubAgentCard extends ArchitectureCard {
  gridWidth: number;
}

const section = (path: string): CardTarget => ({ kind: "section", path });
const card = (title: string, tooltip: string, target: CardTarget, width: CardWidth = "default"): ArchitectureCard => ({
  title,
  tooltip,
  target,
  width,
});
const subAgent = (title: string, tooltip: string, target: CardTarget, width: CardWidth = "default"): SubAgentCard => ({
  ...card(title, tooltip, target, width),
  gridWidth: SUB_AGENT_GRID_WIDTH,
});

export const CHANNEL_GROUPS: { title: string; channels: ArchitectureCard[] }[] = [
  {
    title: "Students",
    channels: [
      card(
        "Chat",
        "Students talk to the agent in the website chat. Try it on the Bot Testing page.",
        section("bot-testing"),
      ),
      card("Email", "Students reach the agent by email. The console has no settings for this channel.", {
        kind: "none",
      }),
    ],
  },
  {
    title: "University Systems",
    channels: [
      card(
        "Marketing Tools",
        "The university's marketing tools send conversations to the agent. The console has no settings for this channel.",
        { kind: "none" },
      ),
      card(
        "Agent Chat",
        "The chat window the university embeds. Its look is set on the Appearance page.",
        section("appearance"),
      ),
      card(
        "APIs",
        "The university's systems call the agent through APIs. The console has no settings for this channel.",
        { kind: "none" },
      ),
    ],
  },
];

export const ROUTER_AGENT = card(
  "Enrollment AI",
  "The router agent: it reads each message and hands it to the right sub agent. Its voice is set under AI Personality.",
  section("controls/ai-personality"),
);

export const AGENT_MEMORY = card(
  "Agent Memory",
  "Long-term memory of each student across conversations, used to personalize answers.",
  section("personalization"),
);

export const SUB_AGENTS: SubAgentCard[] = [
  subAgent(
    "RAG based Q&A",
    "Answers questions from the AI Knowledge Store: websites, files and program data.",
    section("knowledge-store"),
  ),
  subAgent(
    "Accuracy & Controls",
    "Guardrails: AI personality, sensitive and no-go topics, hallucination and quality checks.",
    section("controls"),
  ),
  subAgent(
    "Student Profiler",
    "Builds a profile of each student from the conversation, following the user profile data model.",
    section("user-profiling"),
  ),
  subAgent(
    "Program Recommendations & Personalization",
    "Recommends programs and tailors answers using the user and program profile data models.",
    section("personalization"),
    "personalization",
  ),
  subAgent(
    "Lead Capture & Scoring",
    "Captures and scores leads and hands them to the CRM integrations.",
    section("integrations"),
  ),
  subAgent(
    "Business Analytics & Feedback Loop",
    "Business insights about conversations and leads, fed back to improve the agent.",
    { kind: "dashboard" },
    "businessAnalytics",
  ),
];

export const DATA_STORES: ArchitectureCard[] = [
  card(
    "AI Knowledge Store",
    "Programs, policies, registrations and so on: what the agent knows.",
    section("knowledge-store"),
  ),
  card(
    "User Profile Store",
    "What the agent learns about each student, shaped by the user profile data model.",
    section("user-profiling/user-profile-data-model"),
  ),
  card("Lead Store", "Captured leads, synchronised with the CRM through integrations.", section("integrations")),
];

/** Every card in reading order, for tests and for anything that lists them. */
export const ALL_CARDS: ArchitectureCard[] = [
  ...CHANNEL_GROUPS.flatMap((group) => group.channels),
  ROUTER_AGENT,
  AGENT_MEMORY,
  ...SUB_AGENTS,
  ...DATA_STORES,
];

/**
 * What the diagram knows about where it is. The global `/agent/{agent_name}` route has no client,
 * so `client` is null there and section links cannot be built.
 */
export interface DiagramScope {
  client: Pick<ClientApp, "url_code" | "country" | "market"> | null;
  /** The agent's path segment as it appears in client-scoped URLs. */
  agentSegment: string;
  triggerPoint: string | null;
  backoffice: { template?: string; origin: string } | null;
}

export type CardLink =
  | { kind: "internal"; to: string; needsClient: boolean }
  | { kind: "newWindow"; href: string; needsClient: boolean }
  | { kind: "none" };

/** The client list, where a user without a client in the path picks one. */
export const CHOOSE_CLIENT_PATH = "/clients";

export function agentBasePath(client: Pick<ClientApp, "url_code">, agentSegment: string) {
  return `/${encodeURIComponent(client.url_code)}/agent/${encodeURIComponent(agentSegment)}`;
}

export function cardLink(target: CardTarget, scope: DiagramScope): CardLink {
  switch (target.kind) {
    case "none":
      return { kind: "none" };
    case "section":
      if (!scope.client) return { kind: "internal", to: CHOOSE_CLIENT_PATH, needsClient: true };
      return {
        kind: "internal",
        to: `${agentBasePath(scope.client, scope.agentSegment)}/${target.path}`,
        needsClient: false,
      };
    case "dashboard":
      // Dashboards are per client: without one there is nothing to open but the client list.
      if (!scope.client || !scope.backoffice) return { kind: "internal", to: CHOOSE_CLIENT_PATH, needsClient: true };
      return {
        kind: "newWindow",
        href: backofficeUrl({
          ...scope.backoffice,
          app: scope.client,
          page: DASHBOARD_PAGE,
          triggerPoint: scope.triggerPoint,
        }),
        needsClient: false,
      };
  }
}

/** The card's tooltip, completed with what clicking it will actually do here. */
export function tooltipText(card: ArchitectureCard, link: CardLink) {
  if (link.kind === "internal" && link.needsClient)
    return `${card.tooltip} No client is selected: this opens the client list to choose one first.`;
  if (link.kind === "newWindow") return `${card.tooltip} Opens the dashboard in a new window.`;
  return card.tooltip;
}
