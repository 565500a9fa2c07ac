// Bundles the server (server.ts and the API host it composes) into build/server/, with the
// extraction threads' entry beside it, so `npm start` runs plain JavaScript: compiling the
// TypeScript on every start took about a second of the start-up and a loader thread's memory for
// as long as the server ran (docs/decisions/019-fast-pages.md). Packages stay in node_modules.
import { cpSync, rmSync } from "node:fs";
import { build } from "esbuild";

const OUT = "build/server";

rmSync(OUT, { recursive: true, force: true });
await build({
  // Threads find their entries beside the module that starts them (api/knowledge/crawl/extract-pool.ts,
  // api/db/pglite-on-thread.ts).
  entryPoints: {
    server: "server.ts",
    "extract-worker": "api/knowledge/crawl/extract-worker.ts",
    "pglite-thread": "api/db/pglite-thread.ts",
  },
  outdir: OUT,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  packages: "external",
  // The contract's import alias (tsconfig paths) is code of ours, not a package: bundled, not left
  // for Node to look up in node_modules.
  alias: { "@contract": "./contract" },
  platform: "node",
  format: "esm",
  target: "node20",
  // Not read at run time (no --enable-source-maps: it slows start-up); there for whoever debugs a trace.
  sourcemap: "linked",
  logLevel: "warning",
});
// The database's migrations are read from beside the module that runs them (api/db/client.ts).
cpSync("api/db/migrations", `${OUT}/migrations`, { recursive: true });
console.log(`server bundled into ${OUT}`);
