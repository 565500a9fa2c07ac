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
