/*
 * When two addresses a person typed name the same thing. URL parsing already lower-cases the scheme
 * and the host and drops a default port; on top of that a fragment never names another page
 * (pageAddress, which crawling uses too), and a website's address is the same website with or
 * without a trailing slash on its path.
 */
import { pageAddress, parsedAddress as parsed } from "./crawl/page-address";

export { pageAddress };

/** What two website addresses share when they are the same website (a trailing slash on the path ignored too). */
export function websiteKey(address: string) {
  const url = parsed(address);
  if (!url) return address.trim().toLowerCase();
  const path = url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

export const ALREADY_IN_THIS_SAVE = "The same website is in another row of this save";
export const alreadyAWebsite = (url: string) => `This client already has the website ${url}`;

/**
 * The rows of a websites save whose address would make a second website of one this client has,
 * keyed `websites.<n>.url` like the save's other refusals. Only rows whose address is new (a new
 * row, or a changed address) are checked, against the websites as they would be after the save;
 * of two such rows naming one website, the later is refused.
 */
export function duplicateWebsiteErrors(
  rows: readonly { id?: number; url: string }[],
  existing: readonly { id: number; url: string }[],
) {
  const stored = new Map(existing.map((website) => [website.id, website.url]));
  const savedIds = new Set(rows.flatMap((row) => (row.id !== undefined && stored.has(row.id) ? [row.id] : [])));
  // Websites this save leaves where they are: those it does not touch, and those it keeps at their address.
  const staying = existing.filter((website) => !savedIds.has(website.id));
  const checked: number[] = [];
  rows.forEach((row, index) => {
    if (row.id === undefined) return void checked.push(index);
    const was = stored.get(row.id);
    // Another client's id or a website deleted meanwhile: refused on its own as not found.
    if (was === undefined) return;
    if (websiteKey(was) === websiteKey(row.url)) staying.push({ id: row.id, url: row.url });
    else checked.push(index);
  });
  const byKey = new Map<string, string>();
  for (const website of staying) {
    const key = websiteKey(website.url);
    if (!byKey.has(key)) byKey.set(key, website.url);
  }
  const errors: Record<string, string[]> = {};
  const takenInSave = new Set<string>();
  for (const index of checked) {
    const key = websiteKey(rows[index].url);
    const other = byKey.get(key);
    if (other !== undefined) errors[`websites.${index}.url`] = [alreadyAWebsite(other)];
    else if (takenInSave.has(key)) errors[`websites.${index}.url`] = [ALREADY_IN_THIS_SAVE];
    takenInSave.add(key);
  }
  return errors;
}
