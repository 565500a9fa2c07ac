import { CLIENT_TYPES } from "@contract/values/apps";
import { titleCase } from "~/lib/text";

/** The tab of clients whose type is empty or unknown. */
export const OTHER_TAB = "other";

export interface ClientTab {
  key: string;
  label: string;
  count: number;
}

const KNOWN = new Set<string>(CLIENT_TYPES);

export const tabKeyOf = (clientType: string) => (KNOWN.has(clientType) ? clientType : OTHER_TAB);

/**
 * The clients list's tabs: one per client type, sorted descending (higher_ed before ecommerce),
 * then 'Other' for unknown or empty types when any client (or the link) needs it. The selected
 * tab is the one asked for, else the first with clients, else the first.
 */
export function clientTabs(apps: { client_type: string }[], requested: string | null) {
  const counts = new Map<string, number>();
  for (const app of apps) counts.set(tabKeyOf(app.client_type), (counts.get(tabKeyOf(app.client_type)) ?? 0) + 1);
  const keys = [...CLIENT_TYPES].sort().reverse() as string[];
  if (counts.has(OTHER_TAB) || requested === OTHER_TAB) keys.push(OTHER_TAB);
  const tabs: ClientTab[] = keys.map((key) => ({ key, label: titleCase(key), count: counts.get(key) ?? 0 }));
  const selected = tabs.find((tab) => tab.key === requested) ?? tabs.find((tab) => tab.count > 0) ?? tabs[0];
  return { tabs, selected: selected.key };
}
