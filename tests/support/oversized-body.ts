import net from "node:net";

/**
 * More than the kernel buffers on both ends of a loopback connection can hold together, so the
 * client is still writing when the server answers: Linux lets them grow to `net.ipv4.tcp_rmem`'s
 * and `tcp_wmem`'s maximums, 32 MB and 4 MB where the suite has run. Under the 64 MB a server
 * reads and drops after a refusal (LINGER_LIMITS).
 */
export const OVERSIZED_BODY_BYTES = 48 * 1024 * 1024;
const PIECE = Buffer.alloc(256 * 1024, "a");

export interface BodyOutcome {
  /** What the server sent, as Latin-1 text. */
  answer: string;
  /** The first error the client's socket met (EPIPE, ECONNRESET), or null. */
  error: string | null;
  serverClosed: boolean;
}

export interface OversizedBody {
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
export function postRawBody(url: string, body: OversizedBody): Promise<BodyOutcome> {
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
