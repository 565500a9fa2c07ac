import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { remoteApiFetch, remoteStoragePassThrough } from "~/server/http/remote-api.server";

/**
 * With API_URL, server.ts passes the browser's /storage/* requests on to the remote API host. A
 * stand-in for that host records what reaches it: the body must stream through under a cap, with
 * only the headers the API reads, and every failure must be answered in words.
 */

const CAP = 1024;

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  body: Buffer;
  /** Settles when the request ended, whole or cut off. */
  ended: Promise<void>;
}

let remote: http.Server;
let remoteUrl = "";
let received: Received[] = [];
/** Called as each chunk arrives, for a test to wait on. */
let onChunk = () => {};
/** What the remote does with a request: `echo` answers once it has all of it, `hang` never answers, `stall` never reads it. */
let mode: "echo" | "hang" | "stall" = "echo";

beforeEach(async () => {
  received = [];
  mode = "echo";
  remote = http.createServer((req, res) => {
    if (mode === "stall") return void req.pause();
    const parts: Buffer[] = [];
    let markEnded = () => {};
    const record: Received = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      bytes: 0,
      body: Buffer.alloc(0),
      ended: new Promise((resolve) => (markEnded = resolve)),
    };
    received.push(record);
    req.on("data", (chunk: Buffer) => {
      parts.push(chunk);
      record.bytes += chunk.length;
      onChunk();
    });
    req.on("close", markEnded);
    req.on("end", () => {
      record.body = Buffer.concat(parts);
      if (mode === "echo") res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterEach(async () => {
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
  vi.restoreAllMocks();
});

/** Waits until the remote has received at least `bytes` of the current request. */
const remoteHasReceived = (bytes: number) =>
  new Promise<void>((resolve) => {
    onChunk = () => {
      if ((received[0]?.bytes ?? 0) >= bytes) resolve();
    };
    onChunk();
  });

describe("the browser's /storage/* requests passed on to a remote API host", () => {
  it("passes a PUT on whole, with the headers the API reads and the address this server established", async () => {
    const passOn = remoteStoragePassThrough(remoteUrl, CAP);
    const bytes = new Uint8Array(600).fill(7);
    const response = await passOn(
      new Request("http://console.test/storage/upload?key=a&sig=b", {
        method: "PUT",
        headers: {
          "content-type": "application/pdf",
          authorization: "Bearer token",
          cookie: "__session=console-only",
          "x-forwarded-for": "198.51.100.66",
        },
        body: bytes,
      }),
      "203.0.113.7",
    );

    expect(response.status).toBe(200);
    const [sent] = received;
    expect(sent.method).toBe("PUT");
    expect(sent.url).toBe("/storage/upload?key=a&sig=b");
    expect(sent.body.equals(Buffer.from(bytes))).toBe(true);
    expect(sent.headers["content-type"]).toBe("application/pdf");
    expect(sent.headers.authorization).toBe("Bearer token");
    expect(sent.headers["x-forwarded-for"]).toBe("203.0.113.7");
    expect(sent.headers.cookie).toBeUndefined();
  });

  it("streams a chunked body sent with Expect: 100-continue as it comes, without a 500", async () => {
    const passOn = remoteStoragePassThrough(remoteUrl, CAP);
    let sender!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (sender = controller) });
    const answered = passOn(
      new Request("http://console.test/storage/upload", {
        method: "PUT",
        headers: { "content-type": "application/pdf", "transfer-encoding": "chunked", expect: "100-continue" },
        body,
        duplex: "half",
      }),
      null,
    );
    sender.enqueue(new TextEncoder().encode("first half, "));
    // The first half reaches the API host before the browser has sent the rest: nothing is held back.
    await remoteHasReceived("first half, ".length);
    sender.enqueue(new TextEncoder().encode("second half"));
    sender.close();

    const response = await answered;
    expect(response.status).toBe(200);
    expect(received[0].body.toString()).toBe("first half, second half");
    expect(received[0].headers.expect).toBeUndefined();
  });

  it("refuses a Content-Length over the cap with 413 before anything reaches the API host", async () => {
    const passOn = remoteStoragePassThrough(remoteUrl, CAP);
    const response = await passOn(
      new Request("http://console.test/storage/upload", {
        method: "PUT",
        headers: { "content-type": "application/pdf", "content-length": String(CAP + 1) },
        body: new Uint8Array(CAP + 1),
      }),
      null,
    );

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/larger than/) });
    expect(received).toHaveLength(0);
  });

  it("stops a streamed body without Content-Length once it passes the cap, with 413", async () => {
    const passOn = remoteStoragePassThrough(remoteUrl, CAP);
    const chunk = 256;
    let pulled = 0;
    // A body that would go on for 64 KB: it must be cut, not read to its end.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 64 * 1024) return controller.close();
        pulled += chunk;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const response = await passOn(
      new Request("http://console.test/storage/upload", {
        method: "PUT",
        headers: { "content-type": "application/pdf" },
        body,
        duplex: "half",
      }),
      null,
    );

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/larger than/) });
    await received[0]?.ended;
    expect(received[0]?.bytes ?? 0).toBeLessThanOrEqual(CAP + chunk);
    expect(pulled).toBeLessThan(64 * 1024);
  });

  it("answers 502 in words when the API host cannot be reached; the console's own calls still throw", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    remote.close();
    const passOn = remoteStoragePassThrough(remoteUrl, CAP);
    const response = await passOn(new Request("http://console.test/storage/public/logo.svg"), null);

    expect(response.status).toBe(502);
    const { message } = (await response.json()) as { message: string };
    expect(message).toMatch(/API host cannot be reached/);
    expect(message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at /);
    // Console pages answer a call with no answer their own way (client.server.ts).
    await expect(remoteApiFetch(remoteUrl)(new Request("http://api.internal/v1/me"))).rejects.toThrow();
  });

  it("answers 504 in words when the API host does not answer in time", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    mode = "hang";
    const passOn = remoteStoragePassThrough(remoteUrl, CAP, 200);
    const response = await passOn(
      new Request("http://console.test/storage/upload", {
        method: "PUT",
        headers: { "content-type": "application/pdf" },
        body: new Uint8Array(10),
      }),
      null,
    );

    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/did not answer in time/) });
  });

  it("answers 504 too when the API host takes the connection but stops reading the body", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    mode = "stall";
    const passOn = remoteStoragePassThrough(remoteUrl, 64 * 1024 * 1024, 300);
    let pulled = 0;
    // 16 MB, far more than the sockets between the two hold once the remote stops reading.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 16 * 1024 * 1024) return controller.close();
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const started = Date.now();
    const response = await passOn(
      new Request("http://console.test/storage/upload", { method: "PUT", body, duplex: "half" }),
      null,
    );

    expect(response.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(pulled).toBeLessThan(16 * 1024 * 1024);
  });
});
