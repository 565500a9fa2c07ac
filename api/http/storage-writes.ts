import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { secondsOf, TooManyRequests } from "./throttle";

/**
 * How many objects one person may put in storage a minute: logos, widget images, PDFs registered
 * for upload, client exports and insight exports. Each is bounded in size, but nothing bounded how
 * many, so one Client Admin with a script could fill the disk every client shares. Counted per
 * caller in memory (rate-limiter-flexible, as sign-ins are): several server processes each count
 * their own share, which only loosens the limit by that factor.
 */
export class StorageWrites {
  private readonly perCaller: RateLimiterMemory;

  constructor(perMinute: number) {
    this.perCaller = new RateLimiterMemory({ keyPrefix: "storage", points: perMinute, duration: 60 });
  }

  /**
   * Counts `objects` writes for the caller; a 429 with Retry-After when that is more than the
   * minute has left. A refused request stores nothing, so it counts for nothing.
   */
  async take(caller: { id: number }, objects = 1) {
    const key = String(caller.id);
    const points = Math.max(1, objects);
    try {
      await this.perCaller.consume(key, points);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      await this.perCaller.reward(key, points);
      const seconds = secondsOf(refusal);
      throw new TooManyRequests(
        seconds,
        `Too many uploads and exports in a minute; try again in ${seconds} second${seconds === 1 ? "" : "s"}`,
      );
    }
  }
}
