import type { ClientApp } from "../../contract";
import { decodeSegment, titleCase } from "./text";

export interface Crumb {
  label: string;
  /** Absent on the last crumb: it is the current page. */
  to?: string;
}

/**
 * The spec's breadcrumbs: first the client name (or Home), then each further path segment in
 * title case ('build-agent' ⇒ 'Build Agent'); the last one is not a link, and a single crumb is
 * not shown at all (callers hide an empty list). The bare 'agent' segment has no page of its own,
 * so its crumb leads to the agent list.
 */
export function breadcrumbsFor(pathname: string, app: ClientApp | null): Crumb[] {
  const segments = pathname.split("/").filter(Boolean);
  const crumbs: Crumb[] = [];
  let rest = segments;
  let base = "";
  if (app) {
    crumbs.push({ label: app.client_name, to: `/${app.url_code}` });
    rest = segments.slice(1);
    base = `/${app.url_code}`;
  } else {
    crumbs.push({ label: "Home", to: "/" });
  }
  let path = base;
  for (const segment of rest) {
    path = `${path}/${segment}`;
    const isAgentWord = app && segment === "agent" && path === `${base}/agent`;
    crumbs.push({ label: titleCase(decodeSegment(segment)), to: isAgentWord ? base : path });
  }
  if (crumbs.length <= 1) return [];
  const last = crumbs[crumbs.length - 1];
  crumbs[crumbs.length - 1] = { label: last.label };
  return crumbs;
}
