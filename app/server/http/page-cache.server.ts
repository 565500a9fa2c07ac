import { parse as parseCookieHeader } from "cookie";
import type { NextFunction, Request, Response } from "express";

/**
 * Signed-in pages kept for a few seconds, answered again while nothing they could show has changed
 * (docs/decisions/019-fast-pages.md). A page costs its reads and React's render; the same page
 * asked again by the same browser session — a reload, a second tab, the data request of a client
 * navigation — is the same bytes until a write to the database, so it is answered from memory:
 *
 * - What is kept is one session's: the key is the address and the whole Cookie header, so two
 *   sessions (or one session before and after its cookie changed) never share anything. Requests
 *   with an Authorization header (the back-office pages) and signed-out ones are never kept.
 * - Any change empties it: the database notifies every statement that wrote to a console table,
 *   from any process (migration 0016, api/db/change-notices.ts), and every write request through
 *   this server empties it when it arrives and again when its answer goes out. A page whose
 *   render saw a change begin is not kept. While the notices are not arriving nothing is kept.
 * - Only plain 200 answers (HTML or JSON) without a Set-Cookie, a download or `no-store` are kept,
 *   and only when every API answer the page used is covered by the notices (`reusable`).
 * - Each answer again gets its own Content-Security-Policy nonce: the kept page's is replaced.
 * - Pages are kept at most `ttlMs` (times shown as "5 minutes ago" move on), and within a budget
 *   of entries and characters, the least recently used going first.
 */
export interface PageCacheOptions {
  /** Whether change notices are arriving. */
  isLive: () => boolean;
  /** The session cookie's name: only requests that carry it are kept. */
  sessionCookie: string;
  /** Whether the page's loaders used only answers covered by the change notices. */
  reusable: (res: Response) => boolean;
  ttlMs?: number;
  maxEntries?: number;
  /** Characters of kept pages in all. */
  maxChars?: number;
  now?: () => number;
}

interface KeptPage {
  generation: number;
  keptAt: number;
  status: number;
  /** The headers the page's handler set (not those set before it, which each answer sets anew). */
  headers: [string, number | string | string[]][];
  body: string;
  /** The nonce written into the body, replaced by each answer's own. */
  nonce: string | null;
}

const MAX_KEY_CHARS = 8_192;
/** Larger answers (exports, long tables) are rendered each time. */
const MAX_PAGE_BYTES = 1024 * 1024;
const KEPT_TYPES = /^(text\/html|application\/json)\b/i;
/** Set per answer by Node or the compression in front of this, never replayed. */
const PER_ANSWER_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "date", "connection", "keep-alive", "vary", "etag"]);

type Chunk = string | Uint8Array;

export class PageCache {
  private generation = 0;
  private readonly kept = new Map<string, KeptPage>();
  private chars = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 500;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Something may have changed: nothing kept so far is answered again. */
  changed() {
    this.generation++;
    this.kept.clear();
    this.chars = 0;
  }

  get size() {
    return this.kept.size;
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      // A write may change any page: forget them now, and again once the write is done (pages
      // rendered meanwhile may have read what was there before it).
      this.changed();
      callBeforeHeaders(res, () => this.changed());
      return next();
    }
    const key = req.method === "GET" ? this.keyOf(req) : null;
    if (!key || !this.options.isLive()) return next();
    const page = this.kept.get(key);
    if (page && page.generation === this.generation && this.now() - page.keptAt < this.ttlMs) {
      // Most recently used last: the first entries are the ones to let go.
      this.kept.delete(key);
      this.kept.set(key, page);
      return this.answer(res, page);
    }
    if (page) this.forget(key);
    this.keepWhenDone(res, key);
    next();
  };

  private keyOf(req: Request): string | null {
    const cookie = req.headers.cookie;
    if (!cookie || req.headers.authorization) return null;
    if (parseCookieHeader(cookie)[this.options.sessionCookie] === undefined) return null;
    const key = `${req.originalUrl}\n${cookie}`;
    return key.length <= MAX_KEY_CHARS ? key : null;
  }

  private answer(res: Response, page: KeptPage) {
    for (const [name, value] of page.headers) res.setHeader(name, value);
    const nonce = res.locals.cspNonce as string | undefined;
    res.statusCode = page.status;
    res.end(page.nonce && nonce ? page.body.replaceAll(page.nonce, nonce) : page.body);
  }

  /** Watches what the handler writes, and keeps the page if it may be answered again. */
  private keepWhenDone(res: Response, key: string) {
    const generation = this.generation;
    const setBefore = new Set(res.getHeaderNames());
    const chunks: Buffer[] = [];
    let length = 0;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) return;
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk);
      length += bytes.length;
      if (length <= MAX_PAGE_BYTES) chunks.push(bytes);
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "function") collect(chunk, rest[0]);
      if (length <= MAX_PAGE_BYTES && generation === this.generation && this.mayKeep(res)) {
        const body = Buffer.concat(chunks).toString("utf8");
        const nonce = (res.locals.cspNonce as string | undefined) ?? null;
        const headers = Object.entries(res.getHeaders())
          .filter(([name, value]) => value !== undefined && !setBefore.has(name) && !PER_ANSWER_HEADERS.has(name))
          .map(([name, value]) => [name, value] as [string, number | string | string[]]);
        this.keep(key, { generation, keptAt: this.now(), status: res.statusCode, headers, body, nonce: nonce && body.includes(nonce) ? nonce : null });
      }
      return (end as (...args: unknown[]) => Response).call(res, chunk, ...rest);
    }) as typeof res.end;
  }

  private mayKeep(res: Response) {
    if (res.statusCode !== 200 || res.hasHeader("set-cookie") || res.hasHeader("content-disposition")) return false;
    if (!KEPT_TYPES.test(String(res.getHeader("content-type") ?? ""))) return false;
    if (/no-store/i.test(String(res.getHeader("cache-control") ?? ""))) return false;
    return this.options.isLive() && this.options.reusable(res);
  }

  private keep(key: string, page: KeptPage) {
    this.forget(key);
    this.kept.set(key, page);
    this.chars += page.body.length;
    for (const [oldest, kept] of this.kept) {
      if (this.kept.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.kept.delete(oldest);
      this.chars -= kept.body.length;
    }
  }

  private forget(key: string) {
    const page = this.kept.get(key);
    if (!page) return;
    this.kept.delete(key);
    this.chars -= page.body.length;
  }
}

/** Runs `before` just before the answer's headers go out (Node writes them through writeHead). */
function callBeforeHeaders(res: Response, before: () => void) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    before();
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}
