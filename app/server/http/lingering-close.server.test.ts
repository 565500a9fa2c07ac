import { createServer, type RequestListener, type Server } from "node:http";
import net from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { readForm } from "./form-data.server";
import { closeInStages, type LingerLimits } from "./lingering-close.server";

/**
 * More than the kernel buffers on both ends of a loopback connection can hold together, so the
 * client is still writing when the server answers: Linux lets them grow to `net.ipv4.tcp_rmem`'s
 * and `tcp_wmem`'s maximums, 32 MB and 4 MB where the suite has run. Under the 64 MB a server
 * reads and drops after a refusal (LINGER_LIMITS).
 */
const OVERSIZED_BODY_BYTES = 48 * 1024 * 1024;
const PIECE = Buffer.alloc(256 * 1024, "a");

interface BodyOutcome {
  /** What the server sent, as Latin-1 text. */
  answer: string;
  /** The first error the client's socket met (EPIPE, ECONNRESET), or null. */
  error: string | null;
  serverClosed: boolean;
}

interface OversizedBody {
  path: string;
  contentType: string;
  bodyBytes: number;
  chunked?: boolean;
  /** Never ends the body (declared as a gigabyte when not chunked). */
  keepSending?: boolean;
  headers?: Record<string, string>;
}

/**
 * Posts a body over a raw connection that asks to close, then reads until the connection closes.
 * The socket stays half open, as an HTTP client's does: the server's end of its answer does not
 * stop the body being sent.
 */
function postRawBody(url: string, body: OversizedBody): Promise<BodyOutcome> {
  const { hostname, port, host } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    const outcome: BodyOutcome = { answer: "", error: null, serverClosed: false };
    socket.on("data", (data) => (outcome.answer += data.toString("latin1")));
    socket.on("error", (error: NodeJS.ErrnoException) => (outcome.error ??= error.code ?? error.message));
    socket.on("end", () => (outcome.serverClosed = true));
    socket.on("close", () => resolve(outcome));
    const declared = body.keepSending ? 1024 ** 3 : body.bodyBytes;
    const headers = {
      host,
      connection: "close",
      "content-type": body.contentType,
      ...(body.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(declared) }),
      ...body.headers,
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`POST ${body.path} HTTP/1.1\r\n${head.join("")}\r\n`);
    const frame = body.chunked
      ? Buffer.concat([Buffer.from(`${PIECE.length.toString(16)}\r\n`), PIECE, Buffer.from("\r\n")])
      : PIECE;
    let written = 0;
    const pump = () => {
      while (body.keepSending || written < body.bodyBytes) {
        if (socket.destroyed) return;
        written += PIECE.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
      if (body.chunked) socket.end("0\r\n\r\n");
      else socket.end();
    };
    pump();
  });
}

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
