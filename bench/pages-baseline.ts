/**
 * Another commit of the console, checked out and built beside this tree so a benchmark can run
 * both servers on the same machine at the same time: a `git worktree` in the OS temp folder, its
 * own dependencies (this tree's node_modules hard-linked when the lockfiles are the same, else
 * `npm ci`), its own patches (patches/) and its own `npm run build`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

export interface BaselineCheckout {
  dir: string;
  /** The commit checked out, abbreviated. */
  commit: string;
  /** How its node_modules came to be. */
  dependencies: "hard-linked" | "npm ci";
  builtInSeconds: number;
  remove: () => void;
}

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
  }).trim();

/** `@remix-run+router+1.23.3.patch` ⇒ `@remix-run/router` (patch-package's file names). */
function patchedPackageOf(patchFile: string) {
  const name = patchFile.replace(/\+[^+]+\.patch$/, "");
  return name.startsWith("@") ? name.replace("+", "/") : name;
}

const patchesIn = (dir: string) =>
  existsSync(path.join(dir, "patches"))
    ? readdirSync(path.join(dir, "patches")).filter((f) => f.endsWith(".patch"))
    : [];

/**
 * Hard links cost no copying; nothing the build or the server does writes into node_modules. The
 * packages either tree patches are copied for real instead (a patch written through a link would
 * change this tree's file too), returned to their published state by undoing this tree's patches,
 * and then patched by the checkout's own patches.
 */
function linkDependencies(from: string, to: string) {
  run("cp", ["-al", path.join(from, "node_modules"), path.join(to, "node_modules")], to);
  const ours = patchesIn(from);
  for (const pkg of new Set([...ours, ...patchesIn(to)].map(patchedPackageOf))) {
    const target = path.join(to, "node_modules", pkg);
    rmSync(target, { recursive: true, force: true });
    cpSync(path.join(from, "node_modules", pkg), target, { recursive: true });
  }
  for (const patch of ours) run("git", ["apply", "--reverse", path.join(from, "patches", patch)], to);
  run("npx", ["patch-package"], to);
}

/** Checks `ref` out into a new temporary worktree, installs its dependencies and builds it. */
export function checkOutAndBuild(ref: string, tree = process.cwd()): BaselineCheckout {
  const commit = run("git", ["rev-parse", "--short", `${ref}^{commit}`], tree);
  const parent = mkdtempSync(path.join(tmpdir(), "console-baseline-"));
  const dir = path.join(parent, commit);
  run("git", ["worktree", "add", "--detach", dir, commit], tree);
  const remove = () => {
    try {
      run("git", ["worktree", "remove", "--force", dir], tree);
    } finally {
      rmSync(parent, { recursive: true, force: true });
      run("git", ["worktree", "prune"], tree);
    }
  };
  try {
    const sameLockfile =
      readFileSync(path.join(dir, "package-lock.json"), "utf8") ===
      readFileSync(path.join(tree, "package-lock.json"), "utf8");
    if (sameLockfile) linkDependencies(tree, dir);
    // Its postinstall applies its patches.
    else run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], dir);
    const started = performance.now();
    run("npm", ["run", "build"], dir);
    return {
      dir,
      commit,
      dependencies: sameLockfile ? "hard-linked" : "npm ci",
      builtInSeconds: (performance.now() - started) / 1000,
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
