// Builds the embeddable widget (widget/widget.ts) into public/widget.js: one small, minified file.
import { build } from "esbuild";

await build({
  entryPoints: ["widget/widget.ts"],
  outfile: "public/widget.js",
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2019"],
  legalComments: "none",
});
