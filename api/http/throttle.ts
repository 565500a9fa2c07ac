import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError } from "./errors";

export interface ThrottleLimits {
  perAddressPerMinute: number;
  perAccountPerMinute: number;
}

/**
 * Sign-in limits (rate-limiter-flexible, in memory: sign-ins are rare, so several processes each
 * keeping their own count only loosens the limit by that factor), each in a one-minute window:
 * - per client address, every attempt counts;
 * - per account, only failed attempts count (an unknown account, a refused token). Counting
 *   attempts would let anyone lock a real person out by trying their address ten times a minute;
 *   counting failures still stops guessing at one account from many addresses.
 * A caller without an address (the console calling the API in process, which throttles
 * addresses itself) is counted per account only. An address counts as its network
 * (limitedNetworkOf).
 */
export class Throttle {
  private readonly byAddress: RateLimiterMemory;
  private readonly failuresByAccount: RateLimiterMemory;
  private readonly accountLimit: number;

  constructor(limits: ThrottleLimits) {
    this.byAddress = new RateLimiterMemory({ keyPrefix: "address", points: limits.perAddressPerMinute, duration: 60 });
    this.failuresByAccount = new RateLimiterMemory({
      keyPrefix: "account",
      points: limits.perAccountPerMinute,
      duration: 60,
    });
    this.accountLimit = limits.perAccountPerMinute;
  }

  /** Counts an attempt from `address`; answers the seconds to wait, or null to go ahead. */
  async consume(address: string | null, account: string | null): Promise<number | null> {
    if (address) {
      try {
        await this.byAddress.consume(limitedNetworkOf(address));
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return secondsOf(refusal);
        throw refusal;
      }
    }
    if (!account) return null;
    const failures = await this.failuresByAccount.get(accountKey(account));
    return failures && failures.consumedPoints >= this.accountLimit ? secondsOf(failures) : null;
  }

  /** Records a failed attempt at `account` (the attempt itself was counted by consume). */
  async failed(account: string) {
    await this.failuresByAccount.penalty(accountKey(account), 1);
  }
}

const accountKey = (account: string) => account.trim().toLowerCase();
export const secondsOf = (refusal: RateLimiterRes) => Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));

/** A 429 that carries its Retry-After (errorResponse adds the header). */
export class TooManyRequests extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many attempts; wait a minute and try again",
  ) {
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

/**
 * What a per-address limit counts: an IPv4 address itself (also when written IPv4-mapped,
 * "::ffff:192.0.2.1"), and an IPv6 address's /64. A subscriber is handed at least a whole /64
 * (its last 64 bits are the interface's own, RFC 4291), so counting single IPv6 addresses would
 * let one visitor start 2^64 fresh limits by changing the last half. Anything else is counted as written.
 */
export function limitedNetworkOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const firstHalf = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${firstHalf.map((part) => part.toString(16)).join(":")}::/64`;
}

/** The visitor a public call's limit counts (per embed key): the client's network, or the in-process caller. */
export function visitorOf(c: Context): string {
  const address = clientAddressOf(c);
  return address ? limitedNetworkOf(address) : "in-process";
}
