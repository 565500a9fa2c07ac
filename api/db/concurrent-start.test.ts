import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { apiConfigFromEnv } from "../config";
import { freshDatabase, quietLog, TEST_SECRETS } from "../../tests/support/test-host";
import { openDatabase } from "./client";
import { users } from "./schema";
import { seedIfEmpty } from "./seed";

// Web servers and workers started together on a new PostgreSQL database each open, migrate and
// seed it; separate pools here are separate connections, as separate processes have.
it.skipIf(!process.env.TEST_DATABASE_URL)(
  "migrates and seeds a new database once when three processes start on it together",
  async () => {
    const database = await freshDatabase();
    const handles = await Promise.all([0, 1, 2].map(() => openDatabase(database.options)));
    try {
      const config = apiConfigFromEnv({}, TEST_SECRETS);
      const seeded = await Promise.all(handles.map((handle) => seedIfEmpty({ db: handle.db, config, log: quietLog })));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const [{ n }] = await handles[0].db.select({ n: sql<number>`count(*)::int` }).from(users);
      expect(Number(n)).toBe(3);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await database.drop();
    }
  },
  60_000,
);
