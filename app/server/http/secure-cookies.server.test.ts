import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redirectWithToast } from "../toast.server";
import { secureCookiesOverHttps, withSecureAttribute } from "./secure-cookies.server";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(secureCookiesOverHttps());
  // A redirect with a toast, answered as Remix's Express adapter answers it (one append a cookie).
  app.post("/save", async (_req, res) => {
    const answer = await redirectWithToast("/done", { type: "success", description: "Saved." });
    for (const cookie of answer.headers.getSetCookie()) res.append("Set-Cookie", cookie);
    res.append("Set-Cookie", "__session=sealed; Path=/; HttpOnly; Secure; SameSite=Lax");
    res.redirect(302, "/done");
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const cookiesOf = (response: Response) => response.headers.getSetCookie();

describe("cookies over HTTPS", () => {
  it("marks every cookie Secure when the browser came over HTTPS, once", async () => {
    const response = await fetch(`${base}/save`, {
      method: "POST",
      redirect: "manual",
      headers: { "x-forwarded-proto": "https" },
    });
    const cookies = cookiesOf(response);
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) expect(cookie.match(/;\s*Secure/gi), cookie).toHaveLength(1);
  });

  it("leaves cookies as they are over plain HTTP", async () => {
    const [toast] = cookiesOf(await fetch(`${base}/save`, { method: "POST", redirect: "manual" }));
    expect(toast).toMatch(/^__toast=/);
    expect(toast).not.toMatch(/Secure/i);
  });

  it("reads the attribute, not a value that spells it", () => {
    expect(withSecureAttribute("a=secure; Path=/")).toBe("a=secure; Path=/; Secure");
    expect(withSecureAttribute("a=1; secure")).toBe("a=1; secure");
  });
});
