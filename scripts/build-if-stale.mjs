// `npm start` runs this first: it builds only when a source the build reads is newer than the build
// (or there is none yet), so a restart with nothing changed goes straight to the server.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What `npm run build` reads: the console, the contract, the widget, the server and API host, and the build's settings. */
const SOURCES = [
  "app",
  "contract",
  "widget",
  "api",
  "server.ts",
  "remix.config.js",
  "tsconfig.json",
  "package-lock.json",
  "scripts",
];
/** What it writes; the oldest of them dates the build. */
const OUTPUTS = [
  "build/index.js",
  "public/build",
  "public/widget.js",
  "public/widget.js.br",
  "build/server/server.mjs",
];

function newestIn(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestIn(path.join(entry, name)));
  return newest;
}

export function buildIsStale() {
  if (!OUTPUTS.every((output) => existsSync(output))) return true;
  const built = Math.min(...OUTPUTS.map((output) => statSync(output).mtimeMs));
  return SOURCES.some((source) => newestIn(source) > built);
}

if (buildIsStale()) {
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  process.exit(build.status ?? 1);
}
console.log("The build is up to date with the sources: starting without rebuilding.");
