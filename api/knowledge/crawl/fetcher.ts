import { lookup as dnsLookup } from "node:dns";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, request, type Dispatcher } from "undici";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate as zlibInflate } from "node:zlib";
import { charsetOf } from "@contract/text-file";
import { cutText } from "@contract";

export class FetchRefused extends Error {}
/** Refused by the crawler's own address rules (a private or reserved address, not http(s)) before the site was asked. */
export class AddressRefused extends FetchRefused {}

export interface FetchOptions {
  /** Tests and the bundled demo site: allow loopback and private addresses. */
  allowPrivate: boolean;
  /** Address prefixes reachable although local (the app's own demo site); checked at every hop. */
  localExceptions?: string[];
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
  /**
   * The validators of the copy already held: the fetch asks only for a newer one
   * (If-None-Match, If-Modified-Since), and a 304 answer is returned without a body.
   */
  validators?: { etag?: string | null; lastModified?: string | null };
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  /** The charset the Content-Type header names, as written ("Shift_JIS"), or null. */
  charset: string | null;
  /** The answer's validators, to send back on the next fetch of the same page. */
  etag: string | null;
  lastModified: string | null;
  /** The Retry-After header as sent (a 429 or 503 says when to ask again), or null. */
  retryAfter: string | null;
  body: Buffer;
}

/** A validator header as it may be sent back: a short line of visible characters, or null. */
const validatorOf = (value: string | undefined) =>
  value && value.length <= 200 && /^[\x20-\x7e]+$/.test(value) ? value : null;

export const USER_AGENT = "AssistantConsoleBot/1.0 (+knowledge store crawler)";

/** Only ordinary public unicast addresses are reachable; private, loopback, link-local and the like are not. */
export function isPublicAddress(address: string) {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

/**
 * A host name no service on the internet has: this machine, its network's own names, or an IP
 * address that is not public. Checked where an address is typed, so it is refused then, not later.
 */
export function isPrivateHost(hostname: string) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".internal") ||
    (ipaddr.isValid(host) && !isPublicAddress(host))
  );
}

/**
 * The address check happens in DNS lookup at connect time, so it applies to the first request and
 * to every redirect, and a name cannot resolve to a public address for a check and a private one
 * for the connection.
 */
function guardedAgent(allowPrivate: boolean): Dispatcher {
  return new Agent({
    connect: {
      lookup(hostname, options, callback) {
        dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, "", 0);
          const list = addresses as LookupAddress[];
          const refused = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
          // The address is not named: what a name resolves to inside this network is not the operator's to learn.
          if (refused)
            return callback(new AddressRefused(`${hostname} resolves to a private or reserved address`), "", 0);
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
          callback(null, list[0].address, list[0].family);
        });
      },
    },
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
    connections: 64,
  });
}

const agents = new Map<boolean, Dispatcher>();
const agentFor = (allowPrivate: boolean) => {
  let agent = agents.get(allowPrivate);
  if (!agent) agents.set(allowPrivate, (agent = guardedAgent(allowPrivate)));
  return agent;
};

/** Closes the crawler's pooled connections (on shutdown, so nothing keeps the process alive). */
export async function closeFetchAgents() {
  const open = [...agents.values()];
  agents.clear();
  await Promise.all(open.map((agent) => agent.close()));
}

function literalAddressRefused(url: URL, allowPrivate: boolean) {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return !allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host);
}

type Answer = Dispatcher.ResponseData;

/** A header's single value (undici gives repeated headers as a list). */
const headerOf = (answer: Answer, name: string) => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Drops the rest of a body and its connection; the abort it reports is expected, not an error. */
function abandon(answer: Answer) {
  answer.body.on("error", () => {});
  answer.body.destroy();
}

async function readCapped(answer: Answer, maxBytes: number, url: string) {
  const tooLarge = () => new FetchRefused(`${url} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  if (Number(headerOf(answer, "content-length")) > maxBytes) {
    abandon(answer);
    throw tooLarge();
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of answer.body as AsyncIterable<Buffer>) {
    size += part.byteLength;
    if (size > maxBytes) {
      abandon(answer);
      throw tooLarge();
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}

const inflate = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(zlibInflate),
  br: promisify(brotliDecompress),
} as const;

/**
 * The body as the page is: the crawler asks for no compression, but some servers (object stores
 * and CDNs serving files stored compressed) send it compressed anyway, and the bytes as they came
 * would be indexed as text. Unzipped on libuv's threads, to the same size limit.
 */
async function decoded(body: Buffer, encoding: string | undefined, maxBytes: number, url: URL) {
  const coding = (encoding ?? "").trim().toLowerCase();
  if (!coding || coding === "identity" || !body.length) return body;
  const unzip = inflate[coding as keyof typeof inflate];
  if (!unzip) throw new FetchRefused(`${url} is sent compressed as ${cutText(coding, 40)}, which is not read`);
  try {
    return await unzip(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new FetchRefused(`${url} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    throw new FetchRefused(`${url} is sent compressed as ${coding}, and its bytes do not unzip`);
  }
}

/** TLS failures as Node names them: the site's certificate (or its secure connection) is at fault. */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/**
 * What went wrong with a connection, in plain words: the error's own message names system calls,
 * the addresses connected to and, for TLS, the source file of the library that failed, none of
 * which is the operator's to read.
 */
function connectionFailure(code: string | undefined, url: URL, timeoutMs: number) {
  switch (code) {
    case "ENOTFOUND":
      return `${url.hostname} was not found: no such host name`;
    case "EAI_AGAIN":
      return `${url.hostname} could not be looked up just now`;
    case "ECONNREFUSED":
      return `${url.host} refused the connection`;
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return `${url.host} closed the connection before answering`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return `${url} did not answer within ${timeoutMs / 1000} s`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${url.host} could not be reached`;
    case "CERT_HAS_EXPIRED":
      return `${url.host}'s security certificate has expired`;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
    case "HOSTNAME_MISMATCH":
      return `${url.host}'s security certificate is for another name`;
  }
  if (code && TLS_CODE.test(code)) return `${url.host} has no valid security certificate or secure connection`;
  return `${url} could not be fetched`;
}

/** The reason a request failed, in the words the URL drawers show. */
function refusal(error: unknown, url: URL, timeoutMs: number) {
  if (error instanceof FetchRefused) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof FetchRefused) return cause;
  if ((error as Error).name === "TimeoutError")
    return new FetchRefused(`${url} did not answer within ${timeoutMs / 1000} s`);
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  return new FetchRefused(connectionFailure(typeof code === "string" ? code : undefined, url, timeoutMs));
}

/**
 * GET with the crawler's safety rules: http(s) only, public addresses only, time, size and redirect limits.
 * undici's request API rather than its fetch: the same connection pool without WHATWG Request,
 * Response, Headers and streams around every page, half the CPU a request (docs/decisions/017).
 */
export async function safeFetch(address: string, options: FetchOptions): Promise<Fetched> {
  const maxRedirects = options.maxRedirects ?? 5;
  const timeoutMs = options.timeoutMs ?? 15_000;
  // One deadline for the whole fetch, redirects and body included.
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(address);
  // The addresses asked for so far: a redirect back to one of them is a loop, however long.
  const asked = new Set<string>();
  for (let hop = 0; ; hop++) {
    asked.add(url.href);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new AddressRefused(`${url} is not an http(s) address`);
    const allowPrivate =
      options.allowPrivate || (options.localExceptions ?? []).some((prefix) => url.toString().startsWith(prefix));
    if (literalAddressRefused(url, allowPrivate))
      // After a redirect the refused address is not the one asked for: say where the page sent it.
      throw new AddressRefused(
        hop === 0
          ? `${url.hostname} is a private or reserved address`
          : `${address} redirects to ${url}, a private or reserved address`,
      );
    try {
      const answer = await request(url, {
        method: "GET",
        dispatcher: agentFor(allowPrivate),
        headers: {
          "user-agent": USER_AGENT,
          accept: options.accept ?? "text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.5",
          ...(options.validators?.etag ? { "if-none-match": options.validators.etag } : {}),
          ...(options.validators?.lastModified ? { "if-modified-since": options.validators.lastModified } : {}),
        },
        signal,
      });
      if ([301, 302, 303, 307, 308].includes(answer.statusCode)) {
        // A redirect's body is short: read to its end, the connection is kept for the next request.
        await answer.body.dump();
        const location = headerOf(answer, "location");
        if (!location) throw new FetchRefused(`${url} redirects without a location`);
        const next = new URL(location, url);
        if (asked.has(next.href)) throw new FetchRefused(`${address} redirects in a loop, back to ${next}`);
        if (hop >= maxRedirects) throw new FetchRefused(`${address} redirects more than ${maxRedirects} times`);
        url = next;
        continue;
      }
      // Not modified: the copy held is current, and there is no body to read.
      const notModified = answer.statusCode === 304;
      if (notModified) await answer.body.dump();
      const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
      const body = notModified
        ? Buffer.alloc(0)
        : await decoded(
            await readCapped(answer, maxBytes, url.toString()),
            headerOf(answer, "content-encoding"),
            maxBytes,
            url,
          );
      return {
        url: url.toString(),
        status: answer.statusCode,
        contentType: (headerOf(answer, "content-type") ?? "").split(";")[0].trim().toLowerCase(),
        charset: charsetOf(headerOf(answer, "content-type")),
        etag: validatorOf(headerOf(answer, "etag")),
        lastModified: validatorOf(headerOf(answer, "last-modified")),
        retryAfter: validatorOf(headerOf(answer, "retry-after")),
        body,
      };
    } catch (error) {
      throw refusal(error, url, timeoutMs);
    }
  }
}
