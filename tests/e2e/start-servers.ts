/**
 * What Playwright starts before the journeys: a local OpenID provider standing in for Google, a
 * small control endpoint to choose the identity it signs in as, and the built console on a fresh
 * data folder (embedded PGlite, seeded demo data). The console is the server as `npm start` runs
 * it: the bundle `npm run build` writes (scripts/build-server.mjs), extraction threads included.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startOidcProvider } from "../support/oidc";
import { E2E } from "./ports";

const { startServer } = (await import(
  pathToFileURL(path.resolve("build/server/server.mjs")).href
)) as typeof import("../../server");
const oidc = await startOidcProvider(E2E.oidcPort);

const control = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    if (req.method === "PUT" && req.url === "/identity") {
      oidc.setIdentity(JSON.parse(body));
      res.writeHead(204).end();
      return;
    }
    res.writeHead(404).end();
  });
});
await new Promise<void>((resolve) => control.listen(E2E.controlPort, "127.0.0.1", resolve));

const dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-"));
const running = await startServer({
  ...process.env,
  ...oidc.env,
  NODE_ENV: "production",
  AUTH_DEV_LOGIN: "true",
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  API_URL: "",
  PORT: String(E2E.appPort),
  HOST: "127.0.0.1",
  SESSION_SECRET: "e2e-session-secret",
  // Journeys sign in, upload and export far more often than people do; and every journey's visitor
  // chats from this one address with the demo's embed key, which the chat counts as one visitor
  // (its limit is tested on the API: api/chat/rate-limit.test.ts).
  SIGN_IN_RATE_LIMIT_PER_MINUTE: "10000",
  SIGN_IN_ACCOUNT_RATE_LIMIT_PER_MINUTE: "10000",
  STORAGE_WRITES_PER_MINUTE: "10000",
  CHAT_RATE_LIMIT_PER_MINUTE: "10000",
  API_JWT_SECRET: "e2e-jwt-secret",
});
const remoteDataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-remote-"));
const remoteConsole = await startServer({
  ...process.env,
  NODE_ENV: "production",
  AUTH_DEV_LOGIN: "true",
  DATA_DIR: remoteDataDir,
  API_URL: running.url,
  PORT: String(E2E.remoteConsolePort),
  HOST: "127.0.0.1",
  SESSION_SECRET: "e2e-remote-session-secret",
  SIGN_IN_RATE_LIMIT_PER_MINUTE: "10000",
  SIGN_IN_ACCOUNT_RATE_LIMIT_PER_MINUTE: "10000",
});
console.log(`e2e console on ${running.url} (and ${remoteConsole.url} through API_URL), OpenID provider on ${oidc.url}`);

const stop = async () => {
  await remoteConsole.close();
  await running.close();
  rmSync(remoteDataDir, { recursive: true, force: true });
  await oidc.stop();
  control.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
