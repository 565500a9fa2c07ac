import type { Context } from "hono";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError } from "./errors";

export interface ThrottleLimits {
  perAddressPerMinute: number;
  perAccountPerMinute: number;
}

/**
 * Counts sign-in attempts per client address and per account, each in its own one-minute window
 * (rate-limiter-flexible, in memory: sign-ins are rare, so several processes each keeping their
 * own count only loosens the limit by that factor). `consume` answers the seconds to wait when
 * either count is over its limit. A caller without an address (the console calling the API in
 * process, which throttles addresses itself) is counted per account only.
 */
export class Throttle {
  private readonly byAddress: RateLimiterMemory;
  private readonly byAccount: RateLimiterMemory;

  constructor(limits: ThrottleLimits) {
    this.byAddress = new RateLimiterMemory({ keyPrefix: "address", points: limits.perAddressPerMinute, duration: 60 });
    this.byAccount = new RateLimiterMemory({ keyPrefix: "account", points: limits.perAccountPerMinute, duration: 60 });
  }

  async consume(address: string | null, account: string | null): Promise<number | null> {
    try {
      if (address) await this.byAddress.consume(address);
      if (account) await this.byAccount.consume(account.trim().toLowerCase());
      return null;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      throw refusal;
    }
  }
}

/** A 429 that carries its Retry-After (errorResponse adds the header). */
export class TooManyRequests extends HttpError {
  constructor(readonly retryAfterSeconds: number, message = "Too many attempts; wait a minute and try again") {
    super(429, message);
  }
}

export async function throttleOrThrow(throttle: Throttle, address: string | null, account: string | null) {
  const wait = await throttle.consume(address, account);
  if (wait !== null) throw new TooManyRequests(wait);
}

/**
 * The client's address as the web server established it: Express's `req.ip`, which reads
 * X-Forwarded-For only when TRUST_PROXY says which proxies to believe, else the socket's peer.
 * A forwarded header is never read here, so rotating it cannot dodge a limit. Null when the
 * request did not come over a socket (the console's in-process calls, tests).
 */
export function clientAddressOf(c: Context): string | null {
  const incoming = (c.env as { incoming?: { ip?: string; socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.ip || incoming?.socket?.remoteAddress || null;
}
