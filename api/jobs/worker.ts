/**
 * `npm run worker`: job handlers without the web server, for more machines on one Postgres.
 * Needs DATABASE_URL (an embedded PGlite folder can only be opened by one process).
 */
import path from "node:path";
import { apiConfigFromEnv, loadRuntimeSecrets } from "../config";
import { startApiHost } from "../host";

const dataDir = path.resolve(process.env.DATA_DIR ?? "data");
if (!process.env.DATABASE_URL) {
  console.error(
    "npm run worker needs DATABASE_URL: the embedded database belongs to the server process, which runs the jobs itself.",
  );
  process.exit(1);
}
const secrets = loadRuntimeSecrets(dataDir, process.env);
const host = await startApiHost({
  database: { url: process.env.DATABASE_URL },
  config: apiConfigFromEnv(process.env, secrets),
  storageDir: path.join(dataDir, "files"),
  work: true,
  seed: false,
});
await host.resumePipeline();
console.log("[worker] handling jobs; Ctrl-C to stop");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await host.close();
    process.exit(0);
  });
}
