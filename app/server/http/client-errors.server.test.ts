import { createServer, type Server } from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerClientErrorsInWords } from "./client-errors.server";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A server on 127.0.0.1 answering "ok" to what it can read, with or without the console's refusals in words. */
async function serve(inWords: boolean) {
  const server = createServer((_request, response) => response.end("ok"));
  if (inWords) answerClientErrorsInWords(server);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return (server.address() as net.AddressInfo).port;
}

/** Sends `raw` as it is and reads the whole answer, up to the server's close. */
function exchange(port: number, raw: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(raw));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const split = (answer: string) => {
  const [head, body] = answer.split("\r\n\r\n");
  return { status: head.split("\r\n")[0], body };
};

describe("requests Node refuses before the console sees them", () => {
  const tooLong = `GET /?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: console\r\n\r\n`;
  const garbled = "NOT A REQUEST\r\n\r\n";

  it("answer with Node's status and a message saying why", async () => {
    const port = await serve(true);
    expect(split(await exchange(port, tooLong))).toEqual({
      status: "HTTP/1.1 431 Request Header Fields Too Large",
      body: "The request's address or headers are too long.",
    });
    expect(split(await exchange(port, garbled))).toEqual({
      status: "HTTP/1.1 400 Bad Request",
      body: "The request could not be read.",
    });
    // A request it can read is answered as before.
    expect(split(await exchange(port, "GET / HTTP/1.1\r\nHost: console\r\nConnection: close\r\n\r\n")).body).toBe("ok");
  });

  it("are answered with no word by Node alone (what this replaces)", async () => {
    const port = await serve(false);
    const { status, body } = split(await exchange(port, tooLong));
    expect(status).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(body).toBe("");
  });
});
