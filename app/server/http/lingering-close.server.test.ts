import { createServer, type RequestListener, type Server } from "node:http";
import net from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { readForm } from "./form-data.server";
import { OVERSIZED_BODY_BYTES, postRawBody } from "../../../tests/support/oversized-body";
import { closeInStages, LINGER_LIMITS, type LingerLimits } from "./lingering-close.server";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A server on 127.0.0.1 closing in stages with `limits` (or, with "none", as Node does alone). */
async function serve(listener: RequestListener, limits?: LingerLimits | "none") {
  const server = createServer(listener);
  if (limits !== "none") closeInStages(server, limits);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as net.AddressInfo;
  return { server, port, url: `http://127.0.0.1:${port}` };
}

/** Refuses every body from its declared length, before reading any of it. */
const refuseUnread: RequestListener = (_request, response) => {
  response.writeHead(413, { "content-type": "text/plain" }).end("Too large");
};

/** The console's way: the body read as a web stream by `readForm`, which stops at its limit. */
const refuseAsTheConsoleDoes: RequestListener = (request, response) => {
  const body = createReadableStreamFromReadable(request);
  const headers = { "content-type": String(request.headers["content-type"]) };
  readForm(new Request("http://console/form", { method: "POST", headers, body, duplex: "half" } as RequestInit)).then(
    () => response.writeHead(200).end("read"),
    (refusal: Response) => response.writeHead(refusal.status).end("refused"),
  );
};

/**
 * Remix's way with a body its action never reads: the request becomes a web stream, which reads
 * until its queue is full and then pauses the request. The answer goes out once it has.
 */
const refuseOnceTheBodyStreamPaused: RequestListener = (request, response) => {
  createReadableStreamFromReadable(request);
  const answerWhenPaused = () =>
    request.isPaused() ? response.writeHead(413).end("refused") : setTimeout(answerWhenPaused, 5);
  answerWhenPaused();
};

const form = (url: string, options: { bodyBytes: number; chunked?: boolean; keepSending?: boolean }) =>
  postRawBody(url, { path: "/form", contentType: "application/x-www-form-urlencoded", ...options });

describe("closing in stages a connection whose body was refused unread", () => {
  it("lets a client still sending the body write all of it and read the 413", async () => {
    const outcome = await form((await serve(refuseUnread)).url, { bodyBytes: OVERSIZED_BODY_BYTES });
    expect(outcome.error).toBeNull();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toContain("Too large");
    expect(outcome.serverClosed).toBe(true);
  });

  it("is needed: without it, Node's server resets the client while it writes", async () => {
    // Should Node close in stages itself one day, this fails and the module can go.
    const outcome = await form((await serve(refuseUnread, "none")).url, { bodyBytes: OVERSIZED_BODY_BYTES });
    expect(outcome.error).toMatch(/EPIPE|ECONNRESET/);
  });

  it("answers the console's forms 413 whether their length is declared or streamed", async () => {
    const { url } = await serve(refuseAsTheConsoleDoes);
    for (const chunked of [false, true]) {
      const outcome = await form(url, { bodyBytes: OVERSIZED_BODY_BYTES, chunked });
      expect(outcome.error, chunked ? "chunked" : "declared").toBeNull();
      expect(outcome.answer, chunked ? "chunked" : "declared").toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it("answers a body that had filled its stream and paused the request, and closes once it is sent", async () => {
    const started = Date.now();
    const outcome = await form((await serve(refuseOnceTheBodyStreamPaused)).url, { bodyBytes: OVERSIZED_BODY_BYTES });
    expect(outcome.error).toBeNull();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.serverClosed).toBe(true);
    // Read to the end at once, not closed for want of bytes after the 5 idle seconds.
    expect(Date.now() - started).toBeLessThan(LINGER_LIMITS.idleMs);
  });

  it("closes a connection that sends more than it may drop", async () => {
    const { url } = await serve(refuseUnread, { maxMs: 60_000, idleMs: 60_000, maxBytes: 4 * 1024 * 1024 });
    const outcome = await form(url, { bodyBytes: 0, keepSending: true });
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.error).toMatch(/EPIPE|ECONNRESET/);
  });

  /** Sends the head of a 1,000-byte post and a few bytes of it, then `trickle` one byte each 100 ms. */
  async function heldOpen(limits: LingerLimits, trickle: boolean) {
    const { server, port } = await serve(refuseUnread, limits);
    const serverSideClosed = new Promise((closed) =>
      server.once("connection", (socket: net.Socket) => socket.once("close", closed)),
    );
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    socket.on("data", (data) => (answer += data.toString("latin1")));
    socket.on("error", () => {});
    socket.write("POST /form HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-length: 1000\r\n\r\nabc");
    const dripping = trickle ? setInterval(() => socket.write("x"), 100) : undefined;
    const started = Date.now();
    await serverSideClosed;
    clearInterval(dripping);
    socket.destroy();
    return { answer, ms: Date.now() - started };
  }

  it("closes a connection that sends nothing for a while", async () => {
    const { answer, ms } = await heldOpen({ maxMs: 60_000, idleMs: 300, maxBytes: OVERSIZED_BODY_BYTES }, false);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(5_000);
  });

  it("closes a connection that keeps sending a little, once the whole time is up", async () => {
    const { answer, ms } = await heldOpen({ maxMs: 800, idleMs: 300, maxBytes: OVERSIZED_BODY_BYTES }, true);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(ms).toBeGreaterThanOrEqual(750);
    expect(ms).toBeLessThan(5_000);
  });
});
