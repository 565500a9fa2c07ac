import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";
import robotsParser from "robots-parser";
import { USER_AGENT, safeFetch, type FetchOptions } from "./fetcher";

export interface SitemapEntry {
  url: string;
  lastmod: string | null;
}

export interface Robots {
  isAllowed(url: string): boolean;
  crawlDelaySeconds: number;
  sitemaps: string[];
}

const MAX_SITEMAPS = 50;
const MAX_UNCOMPRESSED = 50 * 1024 * 1024;

/** robots.txt of a site; a missing or unreadable one allows everything. */
export async function readRobots(origin: string, options: FetchOptions): Promise<Robots> {
  const robotsUrl = new URL("/robots.txt", origin).toString();
  let text = "";
  try {
    const response = await safeFetch(robotsUrl, { ...options, maxBytes: 512 * 1024, accept: "text/plain" });
    if (response.status === 200) text = response.body.toString("utf8");
  } catch {
    // No robots.txt (or not reachable): nothing is disallowed.
  }
  const robots = robotsParser(robotsUrl, text);
  return {
    isAllowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
    crawlDelaySeconds: Math.min(Number(robots.getCrawlDelay(USER_AGENT) ?? 0) || 0, 30),
    sitemaps: robots.getSitemaps(),
  };
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

function decode(body: Buffer) {
  // Gzipped sitemaps (.xml.gz) are recognised by their magic bytes, whatever the headers say.
  if (body[0] === 0x1f && body[1] === 0x8b)
    return gunzipSync(body, { maxOutputLength: MAX_UNCOMPRESSED }).toString("utf8");
  return body.toString("utf8");
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

/**
 * Every page listed by the given sitemaps, following sitemap indexes (depth ≤ 3, ≤ 50 sitemaps).
 * Unreadable sitemaps are reported in `errors` rather than failing the whole discovery.
 */
export async function readSitemaps(start: string[], options: FetchOptions) {
  const entries = new Map<string, SitemapEntry>();
  const seen = new Set<string>();
  const read: string[] = [];
  const errors: string[] = [];
  let queue = start.map((url) => ({ url, depth: 0 }));
  while (queue.length && seen.size < MAX_SITEMAPS) {
    const next: typeof queue = [];
    for (const { url, depth } of queue) {
      if (seen.has(url) || seen.size >= MAX_SITEMAPS) continue;
      seen.add(url);
      try {
        const response = await safeFetch(url, {
          ...options,
          maxBytes: 20 * 1024 * 1024,
          accept: "application/xml,text/xml,*/*;q=0.5",
        });
        if (response.status !== 200) {
          errors.push(`${url}: HTTP ${response.status}`);
          continue;
        }
        const xml = parser.parse(decode(response.body)) as {
          urlset?: { url?: { loc?: string; lastmod?: string }[] };
          sitemapindex?: { sitemap?: { loc?: string }[] };
        };
        if (xml.sitemapindex) {
          read.push(url);
          if (depth < 3)
            for (const child of xml.sitemapindex.sitemap ?? [])
              if (child.loc) next.push({ url: String(child.loc).trim(), depth: depth + 1 });
        } else if (xml.urlset) {
          read.push(url);
          for (const item of xml.urlset.url ?? []) {
            if (!item.loc) continue;
            const loc = String(item.loc).trim();
            entries.set(loc, { url: loc, lastmod: plainLastmod(item.lastmod) });
          }
        } else {
          errors.push(`${url}: not a sitemap`);
        }
      } catch (error) {
        errors.push(`${url}: ${(error as Error).message}`);
      }
    }
    queue = next;
  }
  return { entries: [...entries.values()], sitemaps: read, errors };
}

/** The sitemaps of a site: robots.txt's Sitemap lines, else /sitemap.xml (and sitemap.xml beside a website kept in a folder). */
export function sitemapCandidates(websiteUrl: string, robots: Robots) {
  if (robots.sitemaps.length) return robots.sitemaps;
  const candidates = [new URL("/sitemap.xml", websiteUrl).toString(), new URL("sitemap.xml", websiteUrl).toString()];
  return [...new Set(candidates)];
}

/** Skip and allowed patterns are case-insensitive parts of the address (the spec's suggestions: 'blog', '/products/'). */
export function passesPatterns(url: string, allowed: string[], skip: string[]) {
  const lower = url.toLowerCase();
  if (skip.some((p) => lower.includes(p.toLowerCase()))) return false;
  return allowed.length === 0 || allowed.some((p) => lower.includes(p.toLowerCase()));
}

/** Pages of the website's own host only (a sitemap may list other hosts; those are not this website). */
export function sameSite(url: string, website: string) {
  try {
    return new URL(url).host === new URL(website).host;
  } catch {
    return false;
  }
}
