import { readFileSync } from "node:fs";
import { blocksOf } from "../api/knowledge/html-blocks";
import { extractHtml } from "../api/knowledge/extract-html";
for (const page of ["real-pages-dev/bbc-1", "real-pages-dev/nytimes-2"]) {
  const html = readFileSync(`../shared/fixtures/${page}/source.html`, "utf8");
  delete process.env.WL;
  const before = extractHtml(html).blocks.map((b) => b.text);
  process.env.WL = "4";
  const after = new Set(extractHtml(html).blocks.map((b) => b.text));
  console.log(page, before.filter((t) => !after.has(t)));
}
