import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { DatabaseOptions } from "../api/db/client";

/**
 * A throw-away database on the PostgreSQL server at `serverUrl`, or null when no server answers
 * there. `drop()` removes it again.
 */
export async function throwawayPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `console_bench_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** p50 and p95 of timings in ms, as printed figures. */
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  return { p50: at(50), p95: at(95) };
}

/**
 * The databases a benchmark runs on, each from empty tables: PGlite in a new folder under `work`
 * (as the console keeps it, server.ts: not in memory, where each file's growth is a copy of it), or
 * a throw-away database on the PostgreSQL server at `pgServer` (null when none answers).
 */
export function benchDatabases(work: string, pgServer: string): { name: string; open: () => Promise<{ database: DatabaseOptions; drop: () => Promise<void> } | null> }[] {
  return [
    {
      name: "PGlite",
      open: async () => {
        const dir = mkdtempSync(path.join(work, "pglite-"));
        return { database: { dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
    {
      name: "PostgreSQL",
      open: async () => {
        const postgres = await throwawayPostgres(pgServer);
        return postgres && { database: { url: postgres.url }, drop: postgres.drop };
      },
    },
  ];
}
