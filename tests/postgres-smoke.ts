// The server on DATABASE_URL: migrates, seeds, serves the login screen and signs in. Its own job
// handlers are off, so the job it queues completes only if `npm run worker` (a second process on
// the same database) picks it up.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "../server";

const dataDir = mkdtempSync(path.join(tmpdir(), "console-pg-smoke-"));
const running = await startServer({ ...process.env, PORT: "0", DATA_DIR: dataDir, API_URL: "", RUN_WORKERS: "false" });
// node with tsx as a loader (no wrapper process), so the stop signal reaches the worker itself.
const worker = spawn(process.execPath, ["--import", "tsx", "api/jobs/worker.ts"], {
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: "inherit",
});
try {
  const login = await fetch(`${running.url}/login`);
  if (!login.ok || !(await login.text()).includes("Welcome")) throw new Error("the login screen did not render");
  const signIn = await fetch(`${running.url}/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com" }),
  });
  if (signIn.status !== 200) throw new Error(`dev sign-in answered ${signIn.status}`);
  const { user_token } = (await signIn.json()) as { user_token: string };
  const headers = { authorization: `Bearer ${user_token}`, "content-type": "application/json" };
  const sent = (await (
    await fetch(`${running.url}/v1/jobs/purge-refresh-tokens/run`, { method: "POST", headers, body: "{}" })
  ).json()) as { id: string };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await (await fetch(`${running.url}/v1/jobs/purge-refresh-tokens/${sent.id}`, { headers })).json()) as {
      state: string;
    };
    if (job.state === "completed") break;
    if (Date.now() > deadline)
      throw new Error(`the worker process never completed job ${sent.id} (state ${job.state})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(
    "Postgres smoke test: server on DATABASE_URL migrated, seeded, signed in; a separate worker process ran its job.",
  );
} finally {
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGTERM");
  const forceKill = setTimeout(() => worker.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(forceKill);
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
}
