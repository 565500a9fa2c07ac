/**
 * The first start after the embedded database moved from PostgreSQL 18 to 19: how long the copy of a
 * data folder takes and how much memory the process holds meanwhile (api/db/pglite-upgrade.ts).
 * The folder is written by the release before's engine with a store the size of the bench site's
 * (BENCH_PAGES pages, 5,000 by default, of about seventeen passages each with their lexemes).
 *
 *   node --expose-gc --import tsx bench/pglite-upgrade.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder, PGLITE_SHARED_BUFFERS } from "../api/db/client";
import { openWithReleaseBeforeEngine, upgradeEmbeddedDataFolder } from "../api/db/pglite-upgrade";

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const PASSAGES_A_PAGE = 17;

const work = mkdtempSync(path.join(tmpdir(), "console-bench-upgrade-"));
const dir = path.join(work, "pglite");
try {
  const written = performance.now();
  const old = await openWithReleaseBeforeEngine(dir);
  await migrate(drizzle({ client: old }), { migrationsFolder });
  // Passages of about a hundred words, their lexemes made by the old engine itself (the copy moves
  // them as stored, whoever made them).
  await old.exec(`
    insert into client_apps (client_name, url_code) values ('Bench', 'bench');
    insert into websites (app_id, url, site_map, status)
      select id, 'https://bench.example', 'few_urls', 'sitemap_generated' from client_apps;
    insert into urls (app_id, website_id, url, title, status)
      select w.app_id, w.id, 'https://bench.example/page/' || n, 'Page ' || n, 'indexed'
      from websites w, generate_series(1, ${PAGES}) n;
    insert into chunks (app_id, url_id, position, heading_path, text)
      select u.app_id, u.id, p, jsonb_build_array('Page ' || u.id, 'Part ' || p),
        repeat('Students of programme ' || u.id || ' read part ' || p || ' about tuition, housing and deadlines. ', 8)
      from urls u, generate_series(0, ${PASSAGES_A_PAGE - 1}) p;
    update chunks set lexemes_stale = false;`);
  await old.close();
  console.log(
    `folder of PostgreSQL 18 with ${PAGES} pages and ${PAGES * PASSAGES_A_PAGE} passages written in ` +
      `${((performance.now() - written) / 1000).toFixed(1)} s`,
  );

  // The writing engine's memory is let go first, so the peak is the upgrade's own.
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  await upgradeEmbeddedDataFolder(dir, migrationsFolder, console, ["-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`]);
  clearInterval(sampler);
  console.log(
    `upgraded in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB ` +
      `(${(before / 2 ** 20).toFixed(0)} MB before it)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
