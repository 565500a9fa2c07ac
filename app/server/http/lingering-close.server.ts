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

function lingerThenDestroy(request: IncomingMessage, socket: Socket, limits: LingerLimits): void {
  let bytes = 0;
  const destroy = () => {
    clearTimeout(whole);
    clearTimeout(idle);
    socket.destroy();
  };
  const whole = setTimeout(destroy, limits.maxMs).unref();
  // An event loop kept busy elsewhere runs its overdue timers before it reads what came meanwhile:
  // the connection is idle only if nothing more was read once that input has been.
  const idle = setTimeout(() => {
    const read = bytes;
    setImmediate(() => {
      if (bytes === read) destroy();
    });
  }, limits.idleMs).unref();
  socket.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) return destroy();
    idle.refresh();
  });
  socket.once("end", destroy);
  socket.once("error", destroy);
  socket.once("close", () => {
    clearTimeout(whole);
    clearTimeout(idle);
  });
  // A handler may have stopped reading midway (a stream it left): the answer is out, so nothing
  // reads this request any more, and the rest is dropped rather than held.
  request.removeAllListeners("data");
  request.resume();
  socket.resume();
  socket.end();
}
