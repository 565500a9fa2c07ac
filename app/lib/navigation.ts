import type { ClientApp } from "@contract";
import { agentSegment, selectedAgentFor } from "./clients";

export interface NavItem {
  label: string;
  /** A console path. */
  to?: string;
  /** A redirect item: opens the back-office host in a new tab. */
  external?: { page: string; triggerPoint?: string | null };
  children?: NavItem[];
}

export type NavVariant = "global" | "client" | "agent";

export interface Navigation {
  variant: NavVariant;
  items: NavItem[];
}

const GLOBAL_ITEMS: NavItem[] = [
  { label: "Clients", to: "/clients" },
  { label: "Users", to: "/users" },
];

function clientItems(app: ClientApp): NavItem[] {
  const base = `/${app.url_code}`;
  return [
    {
      label: "Agents",
      to: base,
      children: app.agents.map((agent) => ({
        label: agent.name,
        to: `${base}/agent/${encodeURIComponent(agentSegment(agent))}`,
      })),
    },
    { label: "Profile", to: `${base}/manage` },
    { label: "Access Control", to: `${base}/access-control` },
    { label: "Conversations", to: `${base}/conversations` },
    { label: "History", to: `${base}/history` },
  ];
}

function agentItems(app: ClientApp, agentName: string, triggerPoint: string | null): NavItem[] {
  const base = `/${app.url_code}/agent/${encodeURIComponent(agentName)}`;
  return [
    { label: "Home", to: base },
    {
      label: "AI Knowledge Store",
      to: `${base}/knowledge-store`,
      children: [
        { label: "Websites", to: `${base}/knowledge-store/websites` },
        { label: "Files", to: `${base}/knowledge-store/files` },
        { label: "Smart Probing", to: `${base}/knowledge-store/smart-probing` },
        { label: "Program Data Model", to: `${base}/knowledge-store/program-data-model` },
      ],
    },
    {
      label: "User Profiling",
      to: `${base}/user-profiling`,
      children: [
        { label: "Manage User Profile", to: `${base}/user-profiling/user-profile-data-model` },
        { label: "User Profile Store", external: { page: "/user_profiles", triggerPoint } },
      ],
    },
    {
      label: "Controls",
      to: `${base}/controls`,
      children: [
        { label: "AI Personality", to: `${base}/controls/ai-personality` },
        { label: "Sensitive Topics", to: `${base}/controls/sensitive-topics` },
        { label: "No-GO Topics", to: `${base}/controls/no-go-topics` },
      ],
    },
    { label: "Integrations", to: `${base}/integrations` },
    { label: "Appearance", to: `${base}/appearance` },
    { label: "AI Testing", to: `${base}/bot-testing` },
    { label: "Conversations", to: `${base}/conversations` },
    { label: "Business Insights", external: { page: "/dashboard", triggerPoint } },
    {
      label: "Personalization",
      to: `${base}/personalization`,
      children: [
        { label: "Manage User Profile", to: `${base}/personalization/user-profile-data-model` },
        { label: "Manage Program Profile", to: `${base}/personalization/program-profile-data-model` },
      ],
    },
    { label: "Admin Downloads", to: `${base}/admin-downloads` },
  ];
}

/**
 * The spec's three navigation variants: global with no client selected, client-level under
 * /{url_code}, agent-level under /{url_code}/agent/{site_code or name}.
 */
export function navigationFor(
  pathname: string,
  app: ClientApp | null,
  options: { canManageUsers?: boolean } = {},
): Navigation {
  if (!app) {
    const items = options.canManageUsers === false ? GLOBAL_ITEMS.filter((item) => item.to !== "/users") : GLOBAL_ITEMS;
    return { variant: "global", items };
  }
  const [, , agentWord, agentParam] = pathname.split("/");
  if (agentWord === "agent" && agentParam) {
    const agent = selectedAgentFor(pathname, app);
    const name = agent ? agentSegment(agent) : decodeURIComponent(agentParam);
    return { variant: "agent", items: agentItems(app, name, agent?.site_code || null) };
  }
  return { variant: "client", items: clientItems(app) };
}

/** Whether a nav link is the current page or one of its ancestors (Home only when exact). */
export function isActive(item: NavItem, pathname: string, exactOnly: boolean) {
  if (!item.to) return false;
  const current = decodeURIComponent(pathname).replace(/\/$/, "") || "/";
  const target = decodeURIComponent(item.to);
  if (current === target) return true;
  if (exactOnly) return false;
  return current.startsWith(`${target}/`);
}
