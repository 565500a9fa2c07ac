// Writes brotli (.br, quality 11) and gzip (.gz, level 9) copies of the built browser assets, once
// per build: the server sends them as they are (express-static-gzip), so the strongest settings cost
// nothing per request. Pages and API answers are compressed on the fly instead (server.ts).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|css|svg|json|map)$/;

function* assetsIn(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* assetsIn(file);
    else if (COMPRESSIBLE.test(name)) yield file;
  }
}

let files = 0;
let raw = 0;
let brotli = 0;
for (const file of [...assetsIn("public/build"), "public/widget.js"]) {
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  files += 1;
  raw += bytes.length;
  brotli += br.length;
}
console.log(`compressed ${files} assets: ${(raw / 1024).toFixed(0)} KB ⇒ ${(brotli / 1024).toFixed(0)} KB brotli`);
