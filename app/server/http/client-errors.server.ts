import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/**
 * Requests Node refuses before any handler sees them (headers past its limit, a request it cannot
 * parse, headers that never finish) get Node's status with an empty body. Every refusal here says
 * why in words (docs/decisions/016), so these answer with the same status and a short message.
 */
const ANSWERS: Record<string, { status: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: "431 Request Header Fields Too Large",
    message: "The request's address or headers are too long.",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: "413 Payload Too Large",
    message: "The request's chunk extensions are too long.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: "408 Request Timeout", message: "The request took too long to arrive." },
};
const UNREADABLE = { status: "400 Bad Request", message: "The request could not be read." };

export function answerClientErrorsInWords(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client gone, or an answer already on its way on this socket: nothing more can be said (as Node does).
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = (error.code && ANSWERS[error.code]) || UNREADABLE;
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
    );
  });
}
