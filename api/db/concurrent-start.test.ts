import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { apiConfigFromEnv } from "../config";
import { startApiHost } from "../host";
import { TEST_SECRETS, freshDatabase, quietLog } from "../../tests/support/test-host";

const storageDir = mkdtempSync(path.join(tmpdir(), "console-concurrent-start-"));
afterAll(() => rmSync(storageDir, { recursive: true, force: true }));

const startHost = (database: Awaited<ReturnType<typeof freshDatabase>>) =>
  startApiHost({
    database: database.options,
    storageDir,
    config: apiConfigFromEnv({}, TEST_SECRETS),
    // Nothing runs the jobs: what is counted is what was queued.
    work: false,
    log: quietLog,
  });

it.skipIf(!process.env.TEST_DATABASE_URL)(
  "on PostgreSQL, processes starting together queue the demo's first indexing and conversations once",
  async () => {
    const database = await freshDatabase();
    try {
      // The start that seeded stopped before it queued the demo's work: the next starts must.
      await (await startHost(database)).close();
      const hosts = await Promise.all([startHost(database), startHost(database), startHost(database)]);
      try {
        await Promise.all(hosts.map((host) => host.resumePipeline()));
        const { rows } = (await hosts[0].handle.db.execute(
          sql`select name, count(*)::int as n from pgboss.job
              where name in ('website-discover', 'demo-conversations') group by name order by name`,
        )) as unknown as { rows: { name: string; n: number }[] };
        expect(rows.map((row) => `${row.name}:${row.n}`)).toEqual(["demo-conversations:1", "website-discover:1"]);
      } finally {
        await Promise.all(hosts.map((host) => host.close()));
      }
    } finally {
      await database.drop();
    }
  },
  120_000,
);
