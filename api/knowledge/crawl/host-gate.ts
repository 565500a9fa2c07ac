import pLimit, { type LimitFunction } from "p-limit";

/**
 * Politeness per host: at most `concurrency` requests at once, and at least the robots.txt
 * crawl-delay between the starts of two requests to the same host.
 */
export class HostGate {
  private readonly limits = new Map<string, LimitFunction>();
  private readonly nextStart = new Map<string, number>();

  constructor(private readonly concurrency: number) {}

  run<T>(host: string, delaySeconds: number, task: () => Promise<T>): Promise<T> {
    let limit = this.limits.get(host);
    if (!limit) this.limits.set(host, (limit = pLimit(this.concurrency)));
    return limit(async () => {
      if (delaySeconds > 0) {
        const now = Date.now();
        const at = Math.max(now, this.nextStart.get(host) ?? 0);
        this.nextStart.set(host, at + delaySeconds * 1000);
        if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
      }
      return task();
    });
  }
}
