// The e2e suite drives Debian's Chromium and its headless shell (never a downloaded browser).
// Installs whichever is missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { DEBIAN_PACKAGES } from "./browsers.mjs";

const missing = Object.entries(DEBIAN_PACKAGES).filter(([executable]) => !existsSync(executable));
if (missing.length === 0) process.exit(0);

const packages = missing.map(([, name]) => name).join(" ");
const asRoot = process.getuid?.() === 0 ? "" : "sudo ";
console.log(`${missing.map(([executable]) => executable).join(" and ")} missing: installing Debian's ${packages}`);
execSync(
  `${asRoot}apt-get update -qq && ${asRoot}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`,
  { stdio: "inherit" },
);
for (const [executable, name] of missing) {
  if (!existsSync(executable)) {
    console.error(`${name} was installed but ${executable} is still missing`);
    process.exit(1);
  }
}
