// The e2e suite drives Debian's Chromium (never a downloaded browser). Installs it when missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
if (existsSync(CHROMIUM)) process.exit(0);

const asRoot = process.getuid?.() === 0 ? "" : "sudo ";
console.log(`${CHROMIUM} is missing: installing Debian's chromium package`);
execSync(`${asRoot}apt-get update -qq && ${asRoot}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, {
  stdio: "inherit",
});
if (!existsSync(CHROMIUM)) {
  console.error(`chromium was installed but ${CHROMIUM} is still missing`);
  process.exit(1);
}
