// The server on DATABASE_URL: migrates, seeds, serves the login screen and signs in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "../server";

const dataDir = mkdtempSync(path.join(tmpdir(), "console-pg-smoke-"));
const running = await startServer({ ...process.env, PORT: "0", DATA_DIR: dataDir, API_URL: "" });
try {
  const login = await fetch(`${running.url}/login`);
  if (!login.ok || !(await login.text()).includes("Welcome")) throw new Error("the login screen did not render");
  const signIn = await fetch(`${running.url}/auth/dev`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@example.com" }) });
  if (signIn.status !== 200) throw new Error(`dev sign-in answered ${signIn.status}`);
  console.log("Postgres smoke test: server started on DATABASE_URL, migrated, seeded and signed in.");
} finally {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
}
