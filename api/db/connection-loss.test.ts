import { sql } from "drizzle-orm";
import pg from "pg";
import { expect, it } from "vitest";
import { freshDatabase } from "../../tests/support/test-host";
import { openDatabase } from "./client";

// A database restart or failover ends every connection, the ones a transaction holds included. The
// process must carry on: the statement in flight fails, and the next one gets a new connection.
it.skipIf(!process.env.TEST_DATABASE_URL)(
  "carries on when the server ends the connection a transaction holds",
  async () => {
    const database = await freshDatabase();
    const handle = await openDatabase(database.options);
    const admin = new pg.Client({ connectionString: (database.options as { url: string }).url });
    await admin.connect();
    try {
      const ended = handle.db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
          rows: { pid: number }[];
        };
        await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
        // Give the server's notice of the end time to reach the connection before it is used again.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 1`);
      });
      await expect(ended).rejects.toThrow();
      const { rows } = (await handle.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
      expect(rows[0].two).toBe(2);
    } finally {
      await admin.end();
      await handle.close();
      await database.drop();
    }
  },
  60_000,
);
