import { performance } from "node:perf_hooks";
import pLimit, { type LimitFunction } from "p-limit";

/** The longest pause a host's requests wait for (a 429's Retry-After); a longer one, they give up. */
export const MAX_PAUSE_MS = 60_000;

/**
 * Politeness per host: at most `concurrency` requests at once, and at least the robots.txt
 * crawl-delay between the starts of two requests to the same host.
 */
export class HostGate {
  private readonly limits = new Map<string, LimitFunction>();
  /** When the host's last request began (performance.now()). */
  private readonly lastStart = new Map<string, number>();
  /** The host's requests take their turns to start one after the other: the end of the queue. */
  private readonly startQueue = new Map<string, Promise<void>>();

  /** Until when (performance.now()) the host asked for no request: a 429 or 503 with Retry-After. */
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly concurrency: number) {}

  run<T>(host: string, delaySeconds: number, task: () => Promise<T>): Promise<T> {
    let limit = this.limits.get(host);
    if (!limit) this.limits.set(host, (limit = pLimit(this.concurrency)));
    return limit(() =>
      delaySeconds > 0 ? this.startInTurn(host, delaySeconds * 1000, task) : this.afterPause(host).then(task),
    );
  }

  /** The host asked to be left alone for `ms` (Retry-After): no request to it starts before then. */
  pause(host: string, ms: number) {
    const until = performance.now() + ms;
    if (until > (this.pausedUntil.get(host) ?? 0)) this.pausedUntil.set(host, until);
  }

  /** How long the host still asked to be left alone (ms), 0 when it did not. */
  pausedFor(host: string) {
    return Math.max(0, (this.pausedUntil.get(host) ?? 0) - performance.now());
  }

  /**
   * How long a request waits for the host's pause: one longer than a run waits is not waited
   * for here, the task finds it (`pausedFor`) and gives up without asking.
   */
  private waitForPause(host: string) {
    const paused = this.pausedFor(host);
    return paused > MAX_PAUSE_MS ? 0 : paused;
  }

  private async afterPause(host: string) {
    for (let wait = this.waitForPause(host); wait > 0; wait = this.waitForPause(host))
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
  }

  /**
   * Waits for the host's earlier requests to start, then until the delay has passed since the last
   * of them actually began. Counting from the actual start, not the planned one, matters on a busy
   * process: a timer that fires late then pushes the next start back instead of bringing the two
   * closer than the host asked. The task is called in the same breath as its start is recorded, with
   * no await between, so a busy process cannot slip a pause in between the two.
   */
  private async startInTurn<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T> {
    const earlier = this.startQueue.get(host) ?? Promise.resolve();
    let started!: () => void;
    const mine = new Promise<void>((resolve) => (started = resolve));
    // Mine settles only after my own start, which waits for the earlier one: the queue stays in order.
    this.startQueue.set(host, mine);
    await earlier;
    try {
      for (;;) {
        const wait = Math.max(
          (this.lastStart.get(host) ?? -Infinity) + delayMs - performance.now(),
          this.waitForPause(host),
        );
        if (wait <= 0) break;
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
      }
      this.lastStart.set(host, performance.now());
      return task();
    } finally {
      started();
    }
  }
}
