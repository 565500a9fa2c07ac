// `npm run test:e2e:pg`: the journeys with the console on a PostgreSQL server (E2E_DATABASE_URL,
// default the local one), skipped with a line saying so when no server answers there, as the
// real-Postgres lane of the API tests is (tests/with-throwaway-postgres.mjs). Each console the run
// starts gets a throw-away database of its own (tests/e2e/databases.ts).
import { spawnSync } from "node:child_process";
import pg from "pg";

const serverUrl = process.env.E2E_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const probe = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
try {
  await probe.connect();
  await probe.end();
} catch (error) {
  console.log(`No PostgreSQL reachable at ${serverUrl} (${error.message}): the journeys on PostgreSQL are skipped.`);
  process.exit(0);
}

const env = { ...process.env, E2E_DATABASE_URL: serverUrl };
for (const [command, ...args] of [
  ["node", "tests/e2e/ensure-chromium.mjs"],
  ["node", "scripts/build-if-stale.mjs"],
  ["npx", "playwright", "test", "--project=journeys"],
]) {
  const { status } = spawnSync(command, args, { stdio: "inherit", env });
  if (status !== 0) process.exit(status ?? 1);
}
