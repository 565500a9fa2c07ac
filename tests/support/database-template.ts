import { writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder } from "../../api/db/client";
import { PgBossJobQueue } from "../../api/jobs/queue";
import { quietLog } from "./test-host";

/**
 * Writes a migrated, empty embedded database to `file`, with the job queue's tables and queues, for
 * every test file's in-memory database to start from (`openDatabase({ from })`). A new PGlite
 * cluster costs ~1.8 s to initialise and 0.25 s to migrate; a copy of this one starts in 0.4 s, the
 * migrations then find nothing to apply and the queue nothing to make (docs/decisions/038).
 */
export async function writeDatabaseTemplate(file: string): Promise<void> {
  // WAL in segments of 1 MB instead of 16: the dump holds the segment its last checkpoint is in, and
  // every test file's database starts by copying the whole dump (docs/decisions/038).
  const pglite = new PGlite({ extensions: { pg_trgm }, initDbStartParams: ["--wal-segsize=1"] });
  try {
    await migrate(drizzle({ client: pglite }), { migrationsFolder });
    // The job queue's tables and queues too: each test host's queue then finds them made.
    await (await PgBossJobQueue.start({ kind: "pglite", pglite }, quietLog)).stop();
    const dump = await pglite.dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}
