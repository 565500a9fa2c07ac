/**
 * Where the extraction loses on `extraction-dev`: every snippet to keep that the stored text lacks,
 * and every snippet to leave out that it holds, page by page, half by half.
 * `npx tsx bench/extraction-misses.ts [A|B]`
 */
import { extractHtml } from "../api/knowledge/extract/extract-html";
import { devMisses, devPages } from "./extraction-sets";

const half = process.argv[2];
let missingCount = 0;
let leakedCount = 0;
for (const page of devPages()) {
  if (half && page.half !== half) continue;
  const { text, missing, leaked } = devMisses(page, extractHtml);
  if (!missing.length && !leaked.length) continue;
  missingCount += missing.length;
  leakedCount += leaked.length;
  console.log(`\n## ${page.file} (${page.half}) text ${text.length} chars`);
  for (const s of missing) console.log(`  - missing: ${s.slice(0, 160)}`);
  for (const s of leaked) console.log(`  + leaked:  ${s.slice(0, 160)}`);
}
console.log(`\nmissing ${missingCount}, leaked ${leakedCount}`);
