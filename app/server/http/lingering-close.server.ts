import type { IncomingMessage, Server } from "node:http";
import { Socket } from "node:net";

export interface LingerLimits {
  /** The longest a refused body is read and thrown away after its answer went out. */
  maxMs: number;
  /** The longest a client may send nothing meanwhile. */
  idleMs: number;
  /** The most bytes read and thrown away so. */
  maxBytes: number;
}

/**
 * nginx's own lingering close (30 s in all, 5 s without a byte): long enough for a client on a
 * slow line to finish sending a body of a few megabytes and read its answer, bounded so that a
 * connection held open on purpose costs no more than a slow request does (Node waits a minute for
 * a request's headers).
 */
export const LINGER_LIMITS: LingerLimits = { maxMs: 30_000, idleMs: 5_000, maxBytes: 64 * 1024 * 1024 };

/**
 * Closes a connection in stages when its answer went out before its request's body was read
 * (RFC 9112, section 9.6): a 413 for a body over the limit, a redirect to the sign-in page.
 *
 * Node's server closes such a connection as soon as the answer is written when either side asked
 * for the connection to close. The body still on its way then meets a closed socket, the kernel
 * answers it with a reset, and a client that is still writing sees the reset (EPIPE, ECONNRESET)
 * before it reads the answer (Node's own client lost 3 to 4 of 10 such 413s: docs/decisions/016).
 * So the writing half closes (the client reads the answer and the end of it), what still comes is
 * read and thrown away, and the socket closes when the client closes its half or a limit is reached.
 */
export function closeInStages(server: Server, limits: LingerLimits = LINGER_LIMITS): void {
  server.on("request", (request: IncomingMessage) => {
    // Node closes a connection through `destroySoon` once the answer to its last request is
    // written: this socket's own `destroySoon` lingers first when that request was not read.
    const socket = request.socket;
    socket.destroySoon = () => {
      if (request.complete) Socket.prototype.destroySoon.call(socket);
      else lingerThenDestroy(request, socket, limits);
    };
  });
}

/**
 * How often a lingering connection is looked at, at most: what it read meanwhile and how long it
 * has lingered say whether a bound is reached. A client on loopback may send a few hundred
 * megabytes past the bound in this time; the bound is on what the server spends, which is little
 * for bytes it drops.
 */
const CHECK_EVERY_MS = 250;

function lingerThenDestroy(request: IncomingMessage, socket: Socket, limits: LingerLimits): void {
  // What the socket read is counted rather than listened to: a listener for its data would take the
  // socket from Node's HTTP parser, which reads it natively, and a socket that parser had stopped
  // (its request paused with a full buffer) would then never read again. The request's own resume
  // below starts it again through the parser, and the parser drops the rest of the body.
  const startedAt = Date.now();
  const readBefore = socket.bytesRead;
  let lastRead = readBefore;
  let lastReadAt = startedAt;
  const watch = setInterval(
    () => {
      const read = socket.bytesRead;
      const now = Date.now();
      if (read - readBefore > limits.maxBytes || now - startedAt >= limits.maxMs) return socket.destroy();
      if (read !== lastRead) {
        lastRead = read;
        lastReadAt = now;
      } else if (now - lastReadAt >= limits.idleMs) {
        // An event loop kept busy elsewhere runs its overdue timers before it reads what came
        // meanwhile: the connection is idle only if nothing more was read once that input has been.
        setImmediate(() => {
          if (socket.bytesRead === read) socket.destroy();
        });
      }
    },
    Math.min(CHECK_EVERY_MS, limits.idleMs / 4, limits.maxMs / 4),
  ).unref();
  socket.once("end", () => socket.destroy());
  socket.once("error", () => socket.destroy());
  socket.once("close", () => clearInterval(watch));
  // A handler may have stopped reading midway (a stream it left, paused once its buffer filled):
  // the answer is out, so nothing reads this request any more, and the rest is dropped rather than held.
  request.removeAllListeners("data");
  request.resume();
  socket.end();
}
