import { domainToUnicode } from "node:url";
import { createGunzip } from "node:zlib";
import { Parser } from "htmlparser2";
import robotsParser from "robots-parser";
import { AddressRefused, USER_AGENT, safeFetch, type FetchOptions } from "./fetcher";
import { pageAddress, parsedAddress } from "./page-address";
import { cutText } from "@contract";

export interface SitemapEntry {
  url: string;
  lastmod: string | null;
}

export interface Robots {
  isAllowed(url: string): boolean;
  crawlDelaySeconds: number;
  sitemaps: string[];
  /**
   * Why robots.txt could not be read ("could not be read (HTTP 503)"), or null. A server failing
   * or not answering may be hiding rules: no page of the site is fetched meanwhile (RFC 9309,
   * 2.3.1.4). Its sitemaps are still read, and their pages listed: listing a page fetches nothing.
   */
  unreadable: string | null;
}

const MAX_SITEMAPS = 50;
/** The pages a website keeps from its sitemaps, at most. */
export const MAX_URLS_PER_WEBSITE = 100_000;
/** One sitemap unzipped, at most: the sitemaps protocol's own limit. */
const MAX_UNCOMPRESSED = 50 * 1024 * 1024;
/**
 * What one reading of a site's sitemaps unzips and parses in all. Sitemaps may sit on any host
 * (robots.txt and indexes name them), so fifty of them at the protocol's limit, full of other
 * hosts' pages, would be 2.5 GB of XML to parse for nothing.
 */
const MAX_UNCOMPRESSED_IN_ALL = 250 * 1024 * 1024;
/** Text parsed between two turns of the event loop: people's requests wait at most this long. */
const SLICE_BYTES = 128 * 1024;

/**
 * robots.txt of a site. A missing one (any 4xx but 429) allows everything; one the server fails to
 * give (5xx, 429, no answer) is `unreadable`.
 */
export async function readRobots(origin: string, options: FetchOptions): Promise<Robots> {
  const robotsUrl = new URL("/robots.txt", origin).toString();
  let text = "";
  let unreadable: string | null = null;
  try {
    const response = await safeFetch(robotsUrl, { ...options, maxBytes: 512 * 1024, accept: "text/plain" });
    if (response.status === 200) text = response.body.toString("utf8");
    else if (response.status >= 500 || response.status === 429)
      unreadable = `could not be read (HTTP ${response.status})`;
  } catch (error) {
    // Refused by the crawler's own address rules (a private host whose pages are allowed only under
    // a path, as the bundled demo site's are): the site failed at nothing, so it is read as missing.
    // The pages themselves still pass the same rules when they are fetched.
    if (!(error instanceof AddressRefused))
      unreadable = `could not be read (${cutText((error as Error).message, 300)})`;
  }
  const robots = robotsParser(robotsUrl, text);
  return {
    isAllowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
    crawlDelaySeconds: Math.min(Number(robots.getCrawlDelay(USER_AGENT) ?? 0) || 0, 30),
    sitemaps: robots.getSitemaps(),
    unreadable,
  };
}

/**
 * A sitemap's `lastmod` as written, kept only when it is short plain text: a sitemap is outside
 * input, and the value is stored and compared at the next refresh.
 */
export function plainLastmod(value: unknown): string | null {
  const text = value === undefined || value === null ? "" : String(value).trim();
  // eslint-disable-next-line no-control-regex
  return text && text.length <= 100 && !/[\u0000-\u001f\u007f]/.test(text) ? text : null;
}

class SitemapTooLarge extends Error {}

/** The bytes of a sitemap as they unzip (gzipped ones are known by their magic bytes, whatever the headers say), in slices. */
async function* slicesOf(body: Buffer): AsyncGenerator<Buffer> {
  if (body[0] === 0x1f && body[1] === 0x8b) {
    // Unzipped on libuv's threads, a slice at a time: never the whole file in memory, nor the event loop held.
    const gunzip = createGunzip({ chunkSize: SLICE_BYTES });
    gunzip.end(body);
    try {
      for await (const slice of gunzip) yield slice as Buffer;
    } finally {
      gunzip.destroy();
    }
    return;
  }
  for (let at = 0; at < body.length; at += SLICE_BYTES) {
    yield body.subarray(at, at + SLICE_BYTES);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface SitemapReading {
  /** The document's root element: `urlset`, `sitemapindex`, or something that is not a sitemap. */
  root: string | null;
  /** Whether reading stopped because `onPage` asked to. */
  stopped: boolean;
}

/**
 * Reads one sitemap as a stream of XML: each page (`<url>`) and each child sitemap (`<sitemap>`) is
 * handed on as soon as it closes, so memory holds what is kept, not the document's tree.
 * `onPage` answers false to stop reading (a page it has no room for). `budget.left` is the bytes this reading may still unzip.
 */
async function readSitemapXml(
  body: Buffer,
  budget: { left: number },
  onPage: (loc: string, lastmod: string) => boolean,
  onChild: (loc: string) => void,
): Promise<SitemapReading> {
  const reading: SitemapReading = { root: null, stopped: false };
  // The element whose text is being read: `<loc>` and `<lastmod>` hold text alone. Only the
  // item's own children count: an extension's elements inside it (`<image:image><image:loc>`,
  // `<video:video>`) have local names of their own kind and are not the page's address.
  let inside: string | null = null;
  let item: { loc: string; lastmod: string } | null = null;
  let depth = 0;
  let itemDepth = 0;
  const localName = (name: string) => name.slice(name.indexOf(":") + 1);
  const parser = new Parser(
    {
      onopentag(name) {
        depth += 1;
        const tag = localName(name);
        if (reading.root === null) reading.root = tag;
        inside = item && depth === itemDepth + 1 ? tag : null;
        if ((tag === "url" && reading.root === "urlset") || (tag === "sitemap" && reading.root === "sitemapindex")) {
          item = { loc: "", lastmod: "" };
          itemDepth = depth;
        }
      },
      ontext(text) {
        if (!item) return;
        if (inside === "loc" && item.loc.length <= MAX_URL_TEXT) item.loc += text;
        else if (inside === "lastmod" && item.lastmod.length <= 100) item.lastmod += text;
      },
      onclosetag(name) {
        depth -= 1;
        const tag = localName(name);
        inside = null;
        if (!item || depth !== itemDepth - 1 || (tag !== "url" && tag !== "sitemap")) return;
        const { loc, lastmod } = item;
        item = null;
        if (!loc.trim() || reading.stopped) return;
        if (tag === "sitemap") onChild(loc.trim());
        else if (!onPage(loc.trim(), lastmod)) reading.stopped = true;
      },
    },
    { xmlMode: true },
  );
  const decoder = new TextDecoder("utf-8");
  let unzipped = 0;
  for await (const slice of slicesOf(body)) {
    unzipped += slice.length;
    budget.left -= slice.length;
    if (unzipped > MAX_UNCOMPRESSED)
      throw new SitemapTooLarge(`larger than ${MAX_UNCOMPRESSED / 1024 / 1024} MB unzipped`);
    if (budget.left < 0)
      throw new SitemapTooLarge(
        `not read: the sitemaps hold more than ${MAX_UNCOMPRESSED_IN_ALL / 1024 / 1024} MB in all`,
      );
    parser.write(decoder.decode(slice, { stream: true }));
    // Not a sitemap (a page of HTML, say): no need to read on.
    if (reading.stopped || (reading.root !== null && reading.root !== "urlset" && reading.root !== "sitemapindex"))
      return reading;
  }
  parser.end(decoder.decode());
  return reading;
}

/** A `<loc>` longer than this is not an address any row keeps; its text is not gathered further. */
const MAX_URL_TEXT = 4096;

export interface SitemapOptions {
  /** Whether a page is one the website keeps (its host, patterns, robots.txt): only those are gathered. */
  keep: (entry: SitemapEntry) => boolean;
  /** The pages kept at most; reading stops there, and `complete` says so. */
  maxEntries: number;
  /**
   * Whether the sitemaps given are guesses (`/sitemap.xml`, robots.txt naming none): one that is
   * not there, or cannot be reached, is then no sitemap rather than a sitemap unread.
   */
  guessed?: boolean;
}

/**
 * The pages the given sitemaps list that `keep` accepts, following sitemap indexes (depth ≤ 3,
 * ≤ 50 sitemaps), up to `maxEntries`. Unreadable sitemaps are reported in `errors` rather than
 * failing the whole discovery. `complete` is false when a limit stopped the reading early or a
 * sitemap named (by robots.txt or an index) could not be read: pages the sitemaps list may be
 * missing from `entries`.
 */
export async function readSitemaps(start: string[], options: FetchOptions, limits: SitemapOptions) {
  const entries = new Map<string, SitemapEntry>();
  const seen = new Set<string>();
  const read: string[] = [];
  const errors: string[] = [];
  // Pages the sitemaps list that the website does not keep (another host, its patterns, robots.txt).
  const refused: { count: number; first: string | null } = { count: 0, first: null };
  const budget = { left: MAX_UNCOMPRESSED_IN_ALL };
  // Whether every sitemap named was read whole; and whether a limit stopped the reading.
  let complete = true;
  let stopped = false;
  // A sitemap's own address is stored with the website and shown in its errors: robots.txt and
  // indexes are outside input, so it is kept as a page's address is, without a user name and password.
  let queue = start.map((url) => ({ url: pageAddress(url), depth: 0 }));
  // Sitemaps named that the limit of fifty leaves unread: what they list is not known.
  const unread = new Set<string>();
  while (queue.length && !stopped) {
    const next: typeof queue = [];
    for (const { url, depth } of queue) {
      if (seen.has(url) || stopped) continue;
      if (seen.size >= MAX_SITEMAPS) {
        unread.add(url);
        continue;
      }
      seen.add(url);
      // The sitemaps this one names beyond the depth followed: not read, the first is named.
      let tooDeep: string | null = null;
      // A sitemap robots.txt or an index names lists pages; a guessed one may not exist at all.
      const named = depth > 0 || !limits.guessed;
      try {
        const response = await safeFetch(url, {
          ...options,
          maxBytes: MAX_UNCOMPRESSED,
          accept: "application/xml,text/xml,*/*;q=0.5",
        });
        if (response.status !== 200) {
          errors.push(`${url}: HTTP ${response.status}`);
          // A named sitemap that failed (a 503, say) lists pages nobody could read this time: no
          // page is taken as gone from the sitemaps.
          if (named) complete = false;
          continue;
        }
        const reading = await readSitemapXml(
          response.body,
          budget,
          (loc, lastmod) => {
            // `/a#top` and `HTTP://EXAMPLE.ORG/a` are the page `/a` is.
            const url = pageAddress(loc);
            const entry = { url, lastmod: plainLastmod(lastmod) };
            if (entries.has(url)) return true;
            if (!limits.keep(entry)) {
              refused.count += 1;
              refused.first ??= url;
              return true;
            }
            // One more page to keep, and no room for it.
            if (entries.size >= limits.maxEntries) return false;
            entries.set(url, entry);
            return true;
          },
          (child) => {
            if (depth < 3) next.push({ url: pageAddress(child), depth: depth + 1 });
            else tooDeep ??= pageAddress(child);
          },
        );
        if (tooDeep) {
          complete = false;
          errors.push(
            `${url}: names sitemaps nested more than 3 indexes deep, which are not read (the first: ${cutText(tooDeep, 300)})`,
          );
        }
        if (reading.root === "urlset" || reading.root === "sitemapindex") read.push(url);
        else {
          errors.push(`${url}: not a sitemap`);
          if (named) complete = false;
        }
        if (reading.stopped) {
          complete = false;
          stopped = true;
          errors.push(
            `${url}: read up to ${limits.maxEntries.toLocaleString("en")} pages, the most a website keeps; the sitemaps list more`,
          );
        }
      } catch (error) {
        // Too large, unreachable, timed out or not XML: what it lists is not known this time.
        errors.push(`${url}: ${(error as Error).message}`);
        if (named || error instanceof SitemapTooLarge) complete = false;
        if (error instanceof SitemapTooLarge) stopped = true;
      }
    }
    queue = next;
  }
  for (const url of seen) unread.delete(url);
  if (unread.size) {
    complete = false;
    const first = cutText(unread.values().next().value ?? "", 300);
    errors.push(
      `${unread.size === 1 ? "1 sitemap" : `${unread.size.toLocaleString("en")} sitemaps`} not read: a website's sitemaps are read up to ${MAX_SITEMAPS} (the first not read: ${first})`,
    );
  }
  return { entries: [...entries.values()], sitemaps: read, errors, complete, refused };
}

/**
 * None of a website's sitemaps could be read (none there, none answering, none a sitemap): the
 * site's to fix, not a fault of ours, so its job fails for good and the log only warns.
 */
export class NoSitemapFound extends Error {
  constructor(errors: string[]) {
    super(`No sitemap found (${errors.join("; ") || "none listed"})`);
    this.name = "NoSitemapFound";
  }
}

/**
 * What a website's row says of its sitemaps once some were read: why they gave it no page, else
 * the sitemaps that could not be read. Misses among guessed locations (no Sitemap line in
 * robots.txt: /sitemap.xml answering 404) are not errors once one was found; a sitemap an index
 * named that failed is one.
 */
export function sitemapsError(found: Awaited<ReturnType<typeof readSitemaps>>, robots: Robots) {
  const reported = found.errors.length && (robots.sitemaps.length || !found.complete);
  return noPageKeptReason(found) ?? (reported ? cutText(found.errors.join("; "), 2000) : null);
}

/**
 * Why sitemaps that were read gave the website no page: every page they list is one it does not
 * keep (most often another host: the website added as `example.org` where its sitemaps list
 * `www.example.org`). Null when they gave pages, or listed none.
 */
function noPageKeptReason(found: Awaited<ReturnType<typeof readSitemaps>>) {
  if (found.entries.length || !found.refused.count) return null;
  const pages = found.refused.count === 1 ? "1 page" : `${found.refused.count.toLocaleString("en")} pages`;
  return `The sitemaps list ${pages}, none of them on this website's host or kept by its patterns and robots.txt (the first: ${cutText(found.refused.first ?? "", 300)})`;
}

/** The sitemaps of a site: robots.txt's Sitemap lines, else /sitemap.xml (and sitemap.xml beside a website kept in a folder). */
export function sitemapCandidates(websiteUrl: string, robots: Robots) {
  if (robots.sitemaps.length) return robots.sitemaps;
  const candidates = [new URL("/sitemap.xml", websiteUrl).toString(), new URL("sitemap.xml", websiteUrl).toString()];
  return [...new Set(candidates)];
}

/**
 * Skip and allowed patterns are case-insensitive parts of the address (the spec's suggestions:
 * 'blog', '/products/'). Addresses are stored as the URL parser writes them, letters beyond ASCII
 * percent-encoded and hosts in punycode (`xn--bcher-kva.example/admisi%C3%B3n`), while people type
 * the letters (`bücher`, `/admisión/`): a pattern is looked for in both spellings.
 */
export function passesPatterns(url: string, allowed: string[], skip: string[]) {
  if (!skip.length && !allowed.length) return true;
  const spellings = addressSpellings(url);
  const found = (pattern: string) => {
    const part = pattern.normalize("NFC").toLowerCase();
    return spellings.some((spelling) => spelling.includes(part));
  };
  if (skip.some(found)) return false;
  return allowed.length === 0 || allowed.some(found);
}

/** An address lower-cased as stored and, when it holds escapes or punycode, as it reads. */
function addressSpellings(url: string) {
  const stored = url.toLowerCase();
  if (!/%|xn--/i.test(url)) return [stored];
  let read = url;
  try {
    read = decodeURI(url);
  } catch {
    // A malformed escape: the address is read as it is stored.
  }
  const host = parsedAddress(url)?.hostname ?? "";
  const unicodeHost = host ? domainToUnicode(host) : "";
  if (unicodeHost && unicodeHost !== host) read = read.replace(host, unicodeHost);
  return [stored, read.normalize("NFC").toLowerCase()];
}

/** Pages of the website's own host only (a sitemap may list other hosts; those are not this website). */
export function sameSite(url: string, website: string) {
  try {
    return new URL(url).host === new URL(website).host;
  } catch {
    return false;
  }
}
