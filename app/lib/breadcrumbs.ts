import type { ClientApp } from "@contract";
import { REFUSED_CHARACTERS, shortened } from "@contract/text";
import { isBackofficePath } from "./clients";
import { decodeSegment, titleCase } from "./text";

export interface Crumb {
  label: string;
  /** Absent on the last crumb (the current page) and on segments that have no page of their own. */
  to?: string;
}

/**
 * Addresses that are only a step of a longer one: no route renders them, so their crumbs are
 * plain text rather than links to the 404 page. Every other prefix of a console address is a page
 * (hubs, tables behind their drawers, the client's home).
 */
const NOT_A_PAGE: RegExp[] = [
  /^\/agent$/, // the global architecture page /agent/{name}
  /^\/backoffice(\/[^/]+)?$/, // the back-office host's /backoffice/{url_code}/… pages
  /^\/[^/]+\/(ai-finetuning|ai-training)$/, // legacy prefixes of single screens
  /^\/[^/]+\/(agent\/[^/]+\/knowledge-store|ai-training)\/files\/[^/]+$/, // a file's chunks drawer
];

export const isPageAddress = (path: string) => !NOT_A_PAGE.some((pattern) => pattern.test(path));

/**
 * Addresses that are only a step of a longer one but name a section of the page above them: their
 * crumbs lead to that section (an element of the page with that id) rather than to the 404 page.
 */
const SECTION_OF_PARENT: { pattern: RegExp; id: string }[] = [
  // A test run's page, …/controls/test-questions/runs/{id}: the Test Questions screen's runs list.
  { pattern: /\/controls\/test-questions\/runs$/, id: "runs" },
];

/** Where the crumb of `path` (under `parent`) leads: its page, a section of its parent's, or nowhere. */
function crumbTarget(path: string, parent: string): string | undefined {
  const section = SECTION_OF_PARENT.find(({ pattern }) => pattern.test(path));
  if (section) return `${parent}#${section.id}`;
  return isPageAddress(path) ? path : undefined;
}

/** The back-office pages by their headings (their path segments are the provider's, not words). */
const BACKOFFICE_PAGES = new Map([
  ["dashboard", "Business Insights"],
  ["user_profiles", "User Profile Store"],
]);

/** A crumb is a few words: a segment longer than this (an address typed or pasted wrong) is cut. */
const MAX_CRUMB = 60;

/** A segment in words, without the control characters an address can spell (%00, %1B, a direction override). */
const wordsOf = (segment: string) => titleCase(decodeSegment(segment).replace(REFUSED_CHARACTERS, ""));

/**
 * A segment's crumb. A conversation's id reads as nothing a person would say, and whatever stands
 * in its place names a conversation too (a wrong one is not found): its crumb says what it is.
 */
function labelOf(segment: string, previous: string | undefined) {
  if (previous === "conversations") return "Conversation";
  const label = wordsOf(segment);
  return shortened(label, MAX_CRUMB);
}

/**
 * The spec's breadcrumbs: first the client name (or Home), then each further path segment in
 * title case ('build-agent' ⇒ 'Build Agent', 'ai-finetuning' ⇒ 'AI Finetuning'); the last one is
 * not a link, and a single crumb is not shown at all (callers hide an empty list). The bare
 * 'agent' segment of a client has no page of its own, so its crumb leads to the agent list.
 */
export function breadcrumbsFor(pathname: string, app: ClientApp | null): Crumb[] {
  const segments = pathname.split("/").filter(Boolean);
  const crumbs: Crumb[] = [];
  let rest = segments;
  let base = "";
  if (app && isBackofficePath(pathname)) {
    // The client's own page, then the back-office page: its path says nothing a person would.
    const label = BACKOFFICE_PAGES.get(segments[2] ?? "") ?? wordsOf(segments[2] ?? "");
    return segments.length > 2 ? [{ label: app.client_name, to: `/${app.url_code}` }, { label }] : [];
  }
  if (app) {
    crumbs.push({ label: app.client_name, to: `/${app.url_code}` });
    rest = segments.slice(1);
    base = `/${app.url_code}`;
  } else {
    crumbs.push({ label: "Home", to: "/" });
  }
  let path = base;
  for (const [index, segment] of rest.entries()) {
    const parent = path;
    path = `${path}/${segment}`;
    const label = labelOf(segment, rest[index - 1]);
    const to = app && path === `${base}/agent` ? base : crumbTarget(path, parent);
    crumbs.push(to ? { label, to } : { label });
  }
  if (crumbs.length <= 1) return [];
  const last = crumbs[crumbs.length - 1];
  crumbs[crumbs.length - 1] = { label: last.label };
  return crumbs;
}
