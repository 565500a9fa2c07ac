import { forbidden } from "../http/errors";
import { TooManyRequests } from "../http/throttle";

const WINDOW_MS = 60_000;

/**
 * Windows held at most. Beyond them the oldest are forgotten before they end (their visitors start
 * counting again): memory stays bounded, a few megabytes, however many networks a flood comes from.
 */
const MAX_WINDOWS = 50_000;

/**
 * A fixed-window counter per visitor address and embed key, in memory: the public chat endpoint
 * must not let one visitor (or a script) spend the server. Several server processes each count
 * their own share, which only makes the limit looser by that factor.
 */
export class RateLimiter {
  /** In the order the windows started (a renewed one moves to the end), so the ended ones lead. */
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** `perMinute` is read on every request, so a changed setting applies at once. */
  constructor(
    private readonly perMinute: () => number,
    private readonly now = () => Date.now(),
    private readonly maxWindows = MAX_WINDOWS,
  ) {}

  /** True when this request may go ahead; counts it. */
  allow(key: string) {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      this.windows.delete(key);
      this.windows.set(key, { start: now, count: 1 });
      this.forgetEnded(now);
      return true;
    }
    window.count += 1;
    return window.count <= this.perMinute();
  }

  /** For a key already past its limit, the seconds until it may go again (this request not counted); null when it may go. */
  refusedFor(key: string): number | null {
    const window = this.windows.get(key);
    if (!window || this.now() - window.start >= WINDOW_MS || window.count < this.perMinute()) return null;
    return this.retryAfterSeconds(key);
  }

  /** For a refused request: the whole seconds until its window ends and the key may go again (Retry-After). */
  retryAfterSeconds(key: string) {
    const window = this.windows.get(key);
    const left = window ? window.start + WINDOW_MS - this.now() : 0;
    return Math.max(1, Math.ceil(left / 1000));
  }

  /** Windows held now (tests). */
  get size() {
    return this.windows.size;
  }

  /** Drops the ended windows, and the oldest while there are too many: each is looked at once, from the front. */
  private forgetEnded(now: number) {
    for (const [key, window] of this.windows) {
      if (now - window.start < WINDOW_MS && this.windows.size <= this.maxWindows) break;
      this.windows.delete(key);
    }
  }
}

const UNKNOWN_KEY = "This embed script is not valid";

/**
 * Embed keys nobody issued, counted per visitor address. Each costs a look-up before it is refused,
 * and the per-key limit never counts them (every made-up key starts a count of its own), so an
 * address that sends a minute's allowance of unknown keys is refused before the look-up until its
 * minute ends.
 */
export class UnknownKeyLimit {
  private readonly unknown: RateLimiter;

  constructor(perMinute: () => number) {
    this.unknown = new RateLimiter(perMinute);
  }

  /** What `key` opens, looked up by `resolve`; a 403 for a key nobody issued, a 429 past the allowance. */
  async scopeOf<Scope>(key: string, visitor: string, resolve: (key: string) => Promise<Scope | null>): Promise<Scope> {
    const wait = this.unknown.refusedFor(visitor);
    if (wait !== null)
      throw new TooManyRequests(wait, "Too many embed keys that are not valid; wait a minute and try again");
    const scope = await resolve(key);
    if (scope) return scope;
    this.unknown.allow(visitor);
    throw forbidden(UNKNOWN_KEY);
  }
}
