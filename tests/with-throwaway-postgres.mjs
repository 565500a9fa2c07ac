// The real-Postgres lane: creates a throw-away database on the server in PG_TEST_SERVER_URL
// (default: the local PostgreSQL), runs the API and database tests against it (each test file
// makes its own database there), starts the server on it once as a smoke test, then drops it all.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

const serverUrl = process.env.PG_TEST_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  console.log(`No PostgreSQL reachable at ${serverUrl} (${error.message}): the real-Postgres lane is skipped.`);
  process.exit(0);
}
const runId = randomBytes(5).toString("hex");
const name = `console_run_${runId}`;
await admin.query(`create database ${name}`);
const runUrl = new URL(serverUrl);
runUrl.pathname = `/${name}`;
console.log(`Real-Postgres lane on throw-away database ${name}`);

let status = 0;
try {
  const env = { ...process.env, TEST_DATABASE_URL: runUrl.toString(), TEST_RUN_ID: runId };
  const tests = spawnSync("npx", ["vitest", "run", "api", "app/routes", "tests/unit"], { stdio: "inherit", env });
  status = tests.status ?? 1;
  if (status === 0) {
    const smoke = spawnSync("npx", ["tsx", "tests/postgres-smoke.ts"], {
      stdio: "inherit",
      env: { ...env, DATABASE_URL: runUrl.toString() },
    });
    status = smoke.status ?? 1;
  }
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  // Databases of this run's test files that crashed before cleaning up after themselves
  // (only this run's: another lane may be running beside it).
  const { rows } = await admin.query(`select datname from pg_database where datname like 'console_test_${runId}_%'`);
  for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
  await admin.end();
}
process.exit(status);
