import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllowed, namedHostsOf, refuseUnknownHosts, UNKNOWN_HOST_MESSAGE } from "./allowed-hosts.server";

let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.use(
    refuseUnknownHosts(namedHostsOf({ PUBLIC_URL: "https://console.example.org/", ALLOWED_HOSTS: "devbox.lan" })),
  );
  // Stands for the password-free development sign-in.
  app.post("/auth/dev", (_req, res) => res.json({ user_token: "t" }));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server?.close());

/** A post naming `host` in its Host header, as a browser sends it after a DNS rebinding. */
const postAs = (host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: "/auth/dev", method: "POST", headers: { host } },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });

describe("the names the server answers to while development sign-in is on", () => {
  it("refuses a name it was not given, such as a rebound attacker's, with a message", async () => {
    for (const host of ["rebind.attacker.example", `rebind.attacker.example:${port}`, "console.example.org.evil"]) {
      expect(await postAs(host), host).toEqual({ status: 403, body: UNKNOWN_HOST_MESSAGE });
    }
  });

  it("answers its addresses, localhost, PUBLIC_URL's host and ALLOWED_HOSTS", async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      "[::1]:3000",
      "localhost:3000",
      "app.localhost",
      "console.example.org",
      "DevBox.lan",
    ]) {
      expect((await postAs(host)).status, host).toBe(200);
    }
  });

  it("reads names without their case or trailing dot", () => {
    const named = namedHostsOf({ HOST: "Mybox.Local.", ALLOWED_HOSTS: " a.example , ,b.example" });
    expect([...named]).toEqual(["mybox.local", "a.example", "b.example"]);
    expect(hostAllowed("MYBOX.local.", named)).toBe(true);
    expect(hostAllowed("10.0.0.7", named)).toBe(true);
    expect(hostAllowed("c.example", named)).toBe(false);
  });
});
