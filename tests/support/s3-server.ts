import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// s3rver ships no type declarations; this is the part of it the tests use.
interface S3rverApp {
  configureBuckets(): Promise<void>;
  getMiddleware(): RequestListener;
}
type S3rverClass = new (options: {
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverApp;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

/** s3rver's built-in account: both the access key id and the secret. */
export const S3RVER_KEY = "S3RVER";
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * s3rver checks that a presigned URL has not expired but skips the V4 signature itself, so a
 * changed key, content type or signature would pass. This recomputes the signature from the request
 * that arrived, as S3 does (AWS Signature Version 4, query-string form), before s3rver sees it.
 */
function presignedSignatureMatches(request: IncomingMessage, secret: string) {
  const url = new URL(request.url ?? "/", "http://s3rver");
  const query = url.searchParams;
  const [, day, region, service, terminator] = (query.get("X-Amz-Credential") ?? "").split("/");
  const signedHeaders = query.get("X-Amz-SignedHeaders") ?? "";
  const canonicalQuery = [...query]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join("&");
  const canonicalHeaders = signedHeaders
    .split(";")
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const payload = query.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD";
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payload,
  ].join("\n");
  const scope = [day, region, service, terminator].join("/");
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    query.get("X-Amz-Date"),
    scope,
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const signingKey = [day, region, service, terminator].reduce<Buffer | string>(
    (key, part) => hmac(key, part),
    `AWS4${secret}`,
  );
  return hmac(signingKey, stringToSign).toString("hex") === query.get("X-Amz-Signature");
}

/**
 * A local S3-compatible server (s3rver) with one bucket on 127.0.0.1, checking presigned
 * signatures as S3 does. `requests` lists every request as "METHOD /bucket/key", so a test can
 * count how often an object was read.
 */
export async function startS3Server(bucket: string) {
  const directory = mkdtempSync(path.join(tmpdir(), "console-test-s3-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const handle = s3rver.getMiddleware();
  const requests: string[] = [];
  // The SDK's own calls are signed in the Authorization header and go straight through.
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://s3rver");
    requests.push(`${request.method} ${decodeURIComponent(url.pathname)}`);
    if (!url.searchParams.has("X-Amz-Signature") || presignedSignatureMatches(request, S3RVER_KEY)) {
      return handle(request, response);
    }
    response
      .writeHead(403, { "Content-Type": "application/xml" })
      .end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
