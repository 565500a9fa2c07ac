/**
 * The pre-cut reads page furniture without building it, and reads the page again with it built
 * when the page turns out to keep some (html-precut.ts). These tests hold the two ways to the same
 * result on pages made to stress what differs between them: unclosed furniture, furniture nested
 * in furniture, articles inside it, disclosure labels under headings on both sides of it, sign-up
 * fields, microdata and hidden parts shown by controls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { precutDocument } from "./html-precut";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

/** Everything a caller reads of a pre-cut page, in a form two results can be compared in. */
function resultOf(html: string, buildFurniture: boolean) {
  const page = precutDocument(html, { buildFurniture });
  return {
    tree: page.document.toString(),
    visibleChars: page.visibleChars,
    elements: page.elements,
    nestedTextWeight: page.nestedTextWeight,
    declaredTypes: [...page.declaredTypes].sort(),
  };
}

const openTags = [
  "<header>",
  '<div role="banner">',
  "<footer>",
  "<aside>",
  "<nav>",
  '<div role="complementary">',
  "<article>",
  "<main>",
  '<div role="main">',
  "<div>",
  "<section>",
  "<h2>",
  "<h3>",
  "<p>",
  '<button aria-expanded="false" aria-controls="panel">',
  '<div id="panel" hidden>',
  '<div itemscope itemtype="https://schema.org/Product">',
  '<form><input type="email" name="email"><button>Join</button></form>',
  "<br>",
];
const closeTags = [
  "</header>",
  "</div>",
  "</footer>",
  "</aside>",
  "</nav>",
  "</article>",
  "</main>",
  "</section>",
  "</h2>",
  "</h3>",
  "</p>",
  "</button>",
];
const texts = ["Harbour news", "The pier opened in 1887 and still takes the ferry.", "Sign up", "  ", "Menu"];

/** Markup from these pieces in any order: tags left open, closed out of order, or closed twice. */
const markup = fc
  .array(fc.constantFrom(...openTags, ...closeTags, ...texts), { maxLength: 40 })
  .map((pieces) => `<!doctype html><html><head><title>Pier</title></head><body>${pieces.join("")}</body></html>`);

describe("pre-cut furniture read without being built", () => {
  it("gives the tree, counts and types that building it gives, on any arrangement of furniture", () => {
    fc.assert(
      fc.property(markup, (html) => {
        expect(resultOf(html, false)).toEqual(resultOf(html, true));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("keeps an unclosed header's article, and drops a closed header, as building it does", () => {
    const unclosed = `<body><header><h1>Pier</h1><article><p>${texts[1]}</p></article></body>`;
    const closed = `<body><header><p>Menu</p></header><article><p>${texts[1]}</p></article></body>`;
    for (const html of [unclosed, closed]) expect(resultOf(html, false)).toEqual(resultOf(html, true));
    expect(resultOf(unclosed, false).tree).toContain("<header>");
    expect(resultOf(closed, false).tree).not.toContain("<header>");
  });

  it("strips the names of the heading around a disclosure label outside the furniture, as building it does", () => {
    // The heading closed inside the furniture is no longer around the label.
    const html = `<body><h3 class="accordion-header"><aside><h2>Visit</h2><button aria-expanded="true">Hours?</button></aside></h3>
      <article><p>${texts[1]}</p></article></body>`;
    expect(resultOf(html, false)).toEqual(resultOf(html, true));
    expect(resultOf(html, false).tree).not.toContain("accordion-header");
  });
});
