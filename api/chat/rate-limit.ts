/**
 * A fixed-window counter per visitor address and embed key, in memory: the public chat endpoint
 * must not let one visitor (or a script) spend the server. Several server processes each count
 * their own share, which only makes the limit looser by that factor.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** `perMinute` is read on every request, so a changed setting applies at once. */
  constructor(
    private readonly perMinute: () => number,
    private readonly now = () => Date.now(),
  ) {}

  /** True when this request may go ahead; counts it. */
  allow(key: string) {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) {
      this.windows.set(key, { start: now, count: 1 });
      if (this.windows.size > 50_000) this.sweep(now);
      return true;
    }
    window.count += 1;
    return window.count <= this.perMinute();
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (now - window.start >= 60_000) this.windows.delete(key);
  }
}
