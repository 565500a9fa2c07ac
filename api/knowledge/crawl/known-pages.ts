import { and, eq, inArray, sql } from "drizzle-orm";
import type { ApiDeps } from "../../deps";
import { urls } from "../../db/schema";
import { pageAddress } from "./page-address";

/**
 * Which of the pages of `addresses` the website already has, as pageAddress gives them, however its
 * stored address is written: a sitemap's entry may differ in the host's case or carry a fragment.
 */
export async function pagesOfWebsite(websiteId: number, addresses: string[], deps: Pick<ApiDeps, "db">) {
  const known = new Set<string>();
  const wanted = new Set(addresses.map(pageAddress));
  for (let i = 0; i < addresses.length; i += 1000) {
    // Each address as typed and as a page, lower-cased and without its fragment.
    const lowered = [
      ...new Set(
        addresses
          .slice(i, i + 1000)
          .flatMap((address) => [address.trim(), pageAddress(address), rootWithoutSlash(pageAddress(address))])
          .map((address) => address.split("#")[0].toLowerCase()),
      ),
    ];
    const rows = await deps.db
      .select({ url: urls.url })
      .from(urls)
      .where(and(eq(urls.websiteId, websiteId), inArray(sql`lower(split_part(${urls.url}, '#', 1))`, lowered)));
    // Lower-casing matched paths of any case too; only the same page counts.
    for (const row of rows) {
      const page = pageAddress(row.url);
      if (wanted.has(page)) known.add(page);
    }
  }
  return known;
}

/**
 * A site's root as a row stored before may write it, without the final slash (`https://example.org`,
 * a website's address taken as typed): the parser writes it with one. Any other page: itself.
 */
function rootWithoutSlash(page: string) {
  return /^https?:\/\/[^/?#]+\/$/i.test(page) ? page.slice(0, -1) : page;
}
