/**
 * What Playwright starts before the journeys: a local OpenID provider standing in for Google, a
 * small control endpoint to choose the identity it signs in as, and the built console on a fresh
 * data folder (embedded PGlite, seeded demo data). The console is the server as `npm start` runs
 * it: the bundle `npm run build` writes (scripts/build-server.mjs), extraction threads included.
 * With E2E_DATABASE_URL the console's API is on a throw-away database of that PostgreSQL server
 * instead (tests/e2e/databases.ts), dropped as the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startOidcProvider } from "../support/oidc";
import { dropLeftoverE2eDatabases, e2eDatabase } from "./databases";
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
    if (req.method === "POST" && req.url === "/stop") {
      void stop().then(() => res.writeHead(204).end(() => process.exit(0)));
      return;
    }
    res.writeHead(404).end();
  });
});
await new Promise<void>((resolve) => control.listen(E2E.controlPort, "127.0.0.1", resolve));

const dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-"));
await dropLeftoverE2eDatabases();
const database = await e2eDatabase("console");
const running = await startServer({
  ...process.env,
  ...oidc.env,
  NODE_ENV: "production",
  AUTH_DEV_LOGIN: "true",
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
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
console.log(
  `e2e console on ${running.url}${database.url ? " on PostgreSQL" : ""} (and ${remoteConsole.url} through API_URL), OpenID provider on ${oidc.url}`,
);

/**
 * Closes everything and removes the data. On PostgreSQL Playwright's global teardown asks for this
 * through the control endpoint (tests/e2e/stop-servers.ts) before Playwright ends this process: it
 * kills the process group outright, and a signal sent to the group instead reaches the TypeScript
 * loader's transform service too, and the close then failed with "The service is no longer running".
 */
async function stop() {
  await remoteConsole.close();
  await running.close();
  await database.drop();
  rmSync(remoteDataDir, { recursive: true, force: true });
  await oidc.stop();
  control.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const stopAndExit = () => void stop().then(() => process.exit(0));
process.once("SIGINT", stopAndExit);
process.once("SIGTERM", stopAndExit);
