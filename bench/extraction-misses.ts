/**
 * Where the extraction loses on `extraction-dev`: every snippet to keep that the stored text lacks,
 * and every snippet to leave out that it holds, page by page, half by half.
 * `npx tsx bench/extraction-misses.ts [A|B]`
 */
import { extractHtml } from "../api/knowledge/extract/extract-html";
import { devPages, storedText } from "./extraction-sets";

const half = process.argv[2];
const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();
let missing = 0;
let leaked = 0;
for (const page of devPages()) {
  if (half && page.half !== half) continue;
  const text = squeeze(storedText(extractHtml(page.html)));
  const lost = page.keep.filter((snippet) => !text.includes(snippet));
  const kept = page.leave.filter((snippet) => text.includes(snippet));
  if (!lost.length && !kept.length) continue;
  missing += lost.length;
  leaked += kept.length;
  console.log(`\n## ${page.file} (${page.half}) text ${text.length} chars`);
  for (const s of lost) console.log(`  - missing: ${s.slice(0, 160)}`);
  for (const s of kept) console.log(`  + leaked:  ${s.slice(0, 160)}`);
}
console.log(`\nmissing ${missing}, leaked ${leaked}`);
