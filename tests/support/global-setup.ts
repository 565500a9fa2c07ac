import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeDatabaseTemplate } from "./database-template";

/**
 * Once per Vitest run: the migrated database every test file's in-memory PGlite starts from
 * (tests/support/test-host.ts). The Postgres lane makes its databases on the server instead.
 */
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = mkdtempSync(path.join(tmpdir(), "console-test-template-"));
  const file = path.join(dir, "migrated.tar");
  await writeDatabaseTemplate(file);
  process.env.TEST_DATABASE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
