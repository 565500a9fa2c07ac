import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Readability } from "@mozilla/readability";
import { chunkBlocks } from "../index/chunk";
import { extractHtml, withinReadabilityBounds } from "./extract-html";
import { blocksOf, type DomNode } from "./html-blocks";
import { MAX_NESTING, MAX_OPEN_TAGS, precutDocument, visibleLength } from "./html-precut";
import { sharedFixture } from "../../../tests/support/shared-fixtures";

const FIXTURES = sharedFixture("real-pages");
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function overlap(got: string[], want: string[]) {
  const counts = new Map<string, number>();
  for (const w of want) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of got) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(w, left - 1);
    }
  }
  return { precision: shared / Math.max(1, got.length), recall: shared / Math.max(1, want.length) };
}

describe("HTML extraction on a page we wrote", () => {
  const page = `<!doctype html><html><head><title>Admissions | Northfield</title><script>var tracking = 1;</script><style>p{}</style></head>
  <body><header><nav><a href="/">Home</a><a href="/apply">Apply</a></nav></header>
  <div class="cookie-banner">We use cookies. Accept all cookies?</div>
  <main><h1>Undergraduate admissions</h1><p>Applications for the fall term close on <strong>January 15</strong>. Submit your transcripts online.</p>
  <h2>Tuition</h2><p>Tuition is $12,400 per semester for full-time students.</p><ul><li>Books are extra.</li><li>Housing is optional.</li></ul></main>
  <aside>Related: campus tours</aside><footer>© Northfield University · Privacy</footer></body></html>`;

  it("keeps the title and the main text, and drops navigation, scripts, banners, asides and footers", () => {
    const result = extractHtml(page);
    expect(result.title).toBe("Admissions | Northfield");
    expect(result.text).toContain(
      "Applications for the fall term close on January 15. Submit your transcripts online.",
    );
    expect(result.text).toContain("Books are extra.");
    for (const junk of ["tracking", "Accept all cookies", "Apply", "campus tours", "Privacy"])
      expect(result.text).not.toContain(junk);
  });

  it("applies cleanup rules (tags, classes, ids) before extraction", () => {
    const result = extractHtml(page.replace("<ul>", '<ul class="fees">'), { removeSelectors: [".fees", "h2"] });
    expect(result.text).not.toContain("Books are extra.");
    expect(result.blocks.map((b) => b.text)).not.toContain("Tuition");
  });

  it("chunks with heading paths, overlap and bounded size", () => {
    const chunks = chunkBlocks(extractHtml(page).blocks, { targetChars: 80, overlapChars: 40 });
    expect(chunks[0]).toMatchObject({ position: 0, headingPath: ["Undergraduate admissions"] });
    const tuition = chunks.filter((c) => c.headingPath.join(" > ") === "Undergraduate admissions > Tuition");
    expect(tuition.map((c) => c.text).join(" ")).toContain("Tuition is $12,400 per semester");
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(80 + 40);
    // Overlap: a chunk that continues a section starts with the previous chunk's last sentence.
    const long = chunkBlocks(
      [{ kind: "text", text: "One is first. Two is second. Three is third. Four is fourth. Five is fifth." }],
      { targetChars: 30, overlapChars: 15 },
    );
    expect(long.length).toBeGreaterThan(2);
    expect(long[1].text.startsWith(long[0].text.split(". ").pop()!.replace(/\.$/, ""))).toBe(true);
  });
});

const article = (
  body: string,
  title = "Field notes",
) => `<!doctype html><html><head><title>${title}</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
  <main><article>${body}</article></main><footer>© Example · Contact · Privacy</footer></body></html>`;
const prose = (topic: string) =>
  `<p>${topic} is described here at some length, so that the article holds enough words for an extractor to trust it as the page's main content.</p>`;
const textOf = (html: string) =>
  chunkBlocks(extractHtml(html).blocks)
    .map((c) => c.text)
    .join("\n");

describe("what reaches the chunks from pages of many shapes", () => {
  it("keeps headings and their text in reading order, each section's chunk opening with its heading", () => {
    const chunks = chunkBlocks(
      extractHtml(article(`<h2>Arrival</h2>${prose("The arrival")}<h2>Departure</h2>${prose("The departure")}`)).blocks,
    );
    expect(chunks.map((c) => c.headingPath.at(-1))).toEqual(["Arrival", "Departure"]);
    expect(chunks[0].text).toMatch(/^Arrival\nThe arrival is described/);
    expect(chunks[1].text).toMatch(/^Departure\nThe departure is described/);
  });

  it("keeps a table's rows as rows, cells side by side", () => {
    const text = textOf(
      article(
        `${prose("The fee table")}<table><tr><th>Term</th><th>Fee</th></tr><tr><td>Fall</td><td>$6,200</td></tr><tr><td>Spring</td><td>$6,200</td></tr></table>`,
      ),
    );
    expect(text).toContain("Term | Fee\nFall | $6,200\nSpring | $6,200");
  });

  it("keeps right-to-left and non-Latin text", () => {
    const arabic = "تقدم الجامعة منحا دراسية للطلاب المتفوقين في جميع الكليات والبرامج الأكاديمية المختلفة.";
    const japanese = "大学は全ての学部で優秀な学生に奨学金を提供しています。";
    const text = textOf(
      `<!doctype html><html dir="rtl" lang="ar"><head><title>منح</title></head><body><article><p>${arabic}</p><p>${arabic}</p><p>${japanese}</p></article></body></html>`,
    );
    expect(text).toContain(arabic);
    expect(text).toContain(japanese);
  });

  it("keeps the line breaks of <br>-separated text", () => {
    const text = textOf(
      article(`${prose("The office")}<p>Admissions Office<br>1 College Road<br>Northfield, NF 01234</p>`),
    );
    expect(text).toContain("Admissions Office\n1 College Road\nNorthfield, NF 01234");
  });

  it("reads every kind of whitespace run as one space, across inline elements too, and keeps a paragraph's <br> lines", () => {
    const text = textOf(
      article(`${prose("The spacing")}<p>Tabs\tand\u00a0\u00a0no-break  spaces,\nsource line breaks, zero\u200bwidth, <b>bold</b> <i>italic</i>\u2003em.</p>
      <p>  First line  <br>\t second\u00a0line <br><br> third </p>${prose("The end")}`),
    );
    expect(text).toContain("Tabs and no-break spaces, source line breaks, zero width, bold italic em.");
    expect(text).toContain("First line\nsecond line\nthird");
  });

  it("cuts long sections into chunks at sentence ends, punctuation, quotes and brackets kept with their sentence", () => {
    const sentence = (i: number) =>
      [`Item ${i} ends plainly.`, `Did item ${i} ask?!`, `It said "item ${i} is done."`, `(Item ${i} was bracketed.)`][
        i % 4
      ];
    const long = Array.from({ length: 120 }, (_, i) => sentence(i)).join("  ");
    const chunks = chunkBlocks([{ kind: "text", text: long }]);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(chunk.text).toMatch(/^(Item \d+ ends|Did item|It said|\(Item)[^]*(\.|\?!|\."|\.\))$/);
    // Nothing lost or doubled: the chunks put together are the text, its spaces single.
    expect(chunks.map((c) => c.text).join(" ")).toBe(long.replace(/\s+/g, " "));
    expect(chunkBlocks([{ kind: "text", text: "No end mark here" }]).map((c) => c.text)).toEqual(["No end mark here"]);
  });

  it("cuts Chinese and Japanese at 。！？, and a long run without them between two words", () => {
    const sentences = Array.from({ length: 200 }, (_, i) => `第${i}个学生在图书馆读书。`).join("");
    const chunks = chunkBlocks([{ kind: "text", text: sentences }]);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.text).toMatch(/^第\d+个学生[^]*。$/u);
    // No sentence end at all: every cut falls between the words the word breaker finds ("学费|奖学金|申请").
    const run = "学费奖学金申请".repeat(400);
    const cut = chunkBlocks([{ kind: "text", text: run }]);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.map((c) => c.text).join("")).toBe(run);
    for (const chunk of cut) expect(chunk.text).toMatch(/^(学费|奖学金|申请)+$/u);
    for (const chunk of cut) expect(chunk.text).toMatch(/申请$|学费$|奖学金$/u);
    expect(cut.every((chunk) => !chunk.text.endsWith("奖") && !chunk.text.endsWith("奖学"))).toBe(true);
  });

  it("leaves out hidden nodes and lazy images' placeholders", () => {
    const text = textOf(
      article(`${prose("The visible part")}
      <p hidden>Hidden by attribute.</p><div style="display: none">Hidden by style.</div><p aria-hidden="true">Hidden from readers.</p>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/campus.jpg" alt="" class="lazyload"><noscript><img src="/campus.jpg"> Image needs JavaScript.</noscript>
      <span class="lazy-placeholder" style="visibility:hidden">Loading image…</span>${prose("The rest")}`),
    );
    expect(text).toContain("The visible part is described");
    expect(text).toContain("The rest is described");
    for (const leak of ["Hidden by", "Hidden from", "JavaScript", "Loading image", "data:image"])
      expect(text).not.toContain(leak);
  });

  it("keeps an accordion's questions and the answers it hides until asked for, and a set of tabs' panels, but no other button (a heading's too, or an element in a button's role) or hidden node", () => {
    const answer = (subject: string) =>
      `<p>${subject} is answered here in a sentence long enough to be a paragraph of the page's own text.</p>`;
    const blocks = extractHtml(`<!doctype html><html><head><title>FAQ</title></head><body><main><h1>Questions</h1>
      <h3><button type="button" aria-expanded="false" aria-controls="a1">What are the admission requirements?</button></h3>
      <div id="a1" role="region" hidden>${answer("Admission")}<p>Transcripts are sent by your school <span class="toggle" role="button" tabindex="0">Show the picture</span> before March.</p></div>
      <h3 class="accordion-header"><button class="accordion-button collapsed" type="button" aria-expanded="false">When is the deadline?</button></h3>
      <div class="accordion-collapse collapse">${answer("The deadline")}</div>
      <div class="faq"><button aria-expanded="false" aria-controls="a3">Is there a fee?</button><div id="a3" style="display:none">${answer("The fee")}</div></div>
      <div role="tablist"><button role="tab" aria-selected="true" aria-controls="t1">Residents</button><button role="tab" aria-selected="false" aria-controls="t2">Others</button></div>
      <div id="t1" role="tabpanel">${answer("Tuition for residents")}</div><div id="t2" role="tabpanel" hidden>${answer("Tuition for others")}</div>
      <h3>Servings <button type="button">2x</button></h3><p>Servings are counted here in a sentence long enough to be a paragraph too.</p>
      <div role="button" aria-expanded="false">Can guests stay overnight?</div>
      <button type="button">Share this page</button><button aria-controls="demo">Preview the dark theme</button>
      <div id="demo" hidden>A preview no one asked for.</div><p hidden>Hidden by attribute.</p>
      </main></body></html>`).blocks;
    const headings = blocks.filter((block) => block.kind === "heading").map((block) => block.text);
    expect(headings).toEqual(
      expect.arrayContaining(["What are the admission requirements?", "When is the deadline?", "Servings"]),
    );
    const text = blocks.map((block) => block.text).join("\n");
    for (const kept of [
      "Admission is answered",
      "The deadline is answered",
      "Is there a fee?",
      "The fee is answered",
      "Tuition for residents",
      "Tuition for others",
      "Can guests stay overnight?",
    ]) {
      expect(text).toContain(kept);
    }
    for (const leak of [
      "2x",
      "Show the picture",
      "Share this page",
      "Preview the dark theme",
      "A preview no one",
      "Hidden by attribute",
    ])
      expect(text).not.toContain(leak);
  });

  it("reads a page that says it is a product's as a whole (price, stock, specifications), not only its description", () => {
    const description = [
      "is a lightweight trail shoe built for long days on rocky ground, with a sole that holds on wet stone",
      "has an upper of recycled mesh that dries quickly after a stream crossing, and a padded collar",
    ]
      .map((what) => `<p>The Trail Runner 2 ${what}.</p>`)
      .join("");
    const page = (
      head: string,
      scope = "",
      inside = "",
    ) => `<!doctype html><html><head><title>Trail Runner 2</title>${head}</head><body>
      <header><nav><a href="/men">Men</a><a href="/women">Women</a></nav></header>
      <main><div class="product"${scope}>${inside}<div class="info"><h1>Trail Runner 2</h1><div class="price-box"><span class="price">$129.00</span></div>
        <form class="add-to-cart"><select><option>9</option></select><button>Add to cart</button></form><p class="stock">In stock, ships in two days.</p></div>
        <div class="description"><h2>Description</h2>${description}</div>
        <div class="specs"><h2>Specifications</h2><table><tr><th>Weight</th><td>280 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr></table></div></div></main>
      <footer><p>Harbor Outfitters</p></footer></body></html>`;
    const declared = [
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["Product"],"name":"Trail Runner 2","offers":{"@type":"Offer","price":"129.00"}}]}</script>`,
      `<meta property="og:type" content="product">`,
    ];
    for (const text of [
      ...declared.map((head) => extractHtml(page(head)).text),
      extractHtml(page("", ` itemscope itemtype="https://schema.org/Product"`)).text,
    ]) {
      for (const kept of ["$129.00", "In stock, ships in two days.", "recycled mesh", "Weight | 280 g"])
        expect(text).toContain(kept);
      for (const furniture of ["Add to cart", "Women", "Harbor Outfitters"]) expect(text).not.toContain(furniture);
    }
    // A JSON-LD block too long to be read for its type says nothing.
    const padded = `<script type="application/ld+json">{"@type":"Product","description":"${"x".repeat(300 * 1024)}"}</script>`;
    expect(extractHtml(page(padded)).text).not.toContain("$129.00");
    // An article whose publication is described as a product (a paywall's markup) is still an article.
    const article = extractHtml(
      page(
        `<script type="application/ld+json">{"@type":"NewsArticle","isPartOf":{"@type":"Product"}}</script>`,
        ` itemscope itemtype="https://schema.org/NewsArticle"`,
        `<span itemprop="isPartOf" itemscope itemtype="https://schema.org/Product"></span>`,
      ),
    ).text;
    expect(article).toContain("recycled mesh");
    expect(article).not.toContain("$129.00");
  });

  it("keeps every card of a row Readability took some of (a contact page's offices), but no column of teasers made like the article's", () => {
    const card = (name: string, lines: string) => `<div class="col card"><h2>${name}</h2><p>${lines}</p></div>`;
    const contact =
      extractHtml(`<!doctype html><html><head><title>Contact us</title></head><body><main><h1>Contact us</h1>
      <p>Our admissions counselors answer questions about applying, visiting campus and paying for college.</p>
      <div class="row">${card("Office of Admissions", "Hall 2, 100 College Road, Northfield<br>Phone: (555) 010-1891, admissions@northfield.example")}
      ${card("Opening hours", "Monday to Friday, 8:30 am to 5 pm<br>Saturday, 9 am to noon during the fall term")}
      ${card("Financial aid", "Phone: (555) 010-1900")}</div></main></body></html>`).blocks;
    expect(contact.filter((block) => block.kind === "heading").map((block) => block.text)).toEqual([
      "Contact us",
      "Office of Admissions",
      "Opening hours",
      "Financial aid",
    ]);
    expect(contact.map((block) => block.text)).toContain("Phone: (555) 010-1900");

    const teasers = ["Ten quiet beaches", "A week in the hills", "Night trains return"]
      .map((title) => `<p><a href="/${title.length}">${title} for an autumn weekend away</a> (4 min)</p>`)
      .join("");
    const grid = extractHtml(
      article(
        `<div class="grid"><div class="col">${prose("The harbour")}${prose("The old town")}</div><div class="col">${teasers}</div></div>`,
      ),
    ).text;
    expect(grid).toContain("The old town is described");
    expect(grid).not.toContain("Ten quiet beaches");
  });

  it("keeps a titled box of facts Readability leaves beside the article (a list, a table, a row of plans), on its side, but no untitled list of figures", () => {
    const story = `<div class="content">${prose("The program")}${prose("Clinical placement")}${prose("The licensing exam")}</div>`;
    const facts = `<div class="facts"><h2>Quick facts</h2><ul><li>Credits: 120</li><li>Length: 4 years</li><li>Campus: Hall 7, 100 College Road</li></ul></div>`;
    const page = (main: string) =>
      extractHtml(
        `<!doctype html><html><head><title>Nursing</title></head><body><main><h1>Nursing (BSN)</h1>${main}</main></body></html>`,
      );
    for (const [main, factsFirst] of [
      [facts + story, true],
      [story + facts, false],
    ] as const) {
      const { text, blocks } = page(main);
      expect(text).toContain("Credits: 120");
      expect(blocks.find((block) => block.text === "Quick facts")?.kind).toBe("heading");
      expect(text.indexOf("Credits: 120") < text.indexOf("The program is described")).toBe(factsFirst);
    }
    const glance = `<table class="glance"><caption>At a glance</caption><tr><th>Date</th><td>14 March 2026</td></tr><tr><th>Place</th><td>Hall 7</td></tr></table>`;
    expect(page(story + glance).text).toContain("Date | 14 March 2026");
    const plan = (name: string, price: string) =>
      `<div class="plan"><h3>${name}</h3><p class="price">${price} a month</p><ul><li>Support by e-mail</li></ul></div>`;
    const plans = `<h2>Plans</h2><div class="plans">${plan("Basic", "$9")}${plan("Team", "$29")}${plan("Business", "$99")}</div>`;
    expect(page(plans + story).text).toMatch(
      /Basic[^]*\$9 a month[^]*Business[^]*\$99 a month[^]*The program is described/,
    );
    const byline = `<ul class="meta"><li>24 July 2015</li><li>941 comments</li></ul>`;
    expect(page(byline + story).text).not.toContain("941 comments");
    const teasers = `<div><h2>Most read</h2><ul><li><a href="/1">Storm closes 3 roads</a></li><li><a href="/2">Budget: 12 new schools</a></li></ul></div>`;
    expect(page(story + teasers).text).not.toContain("Storm closes");
  });

  it("reads the article of a page whose <header> is never closed, and still drops a closed header's teasers", () => {
    // The site's header is left open: the browser keeps everything after it inside it, the article too.
    const unclosed = `<!doctype html><html><head><title>Emden</title></head><body>
      <header id="branding"><div class="row"><a href="/" class="logo">Travel guide</a></div>
      <div id="wrap"><article><h1>Emden</h1>${prose("The harbour town")}${prose("Its museums")}</article></div>
      <footer>Imprint · Privacy</footer></body></html>`;
    const text = textOf(unclosed);
    expect(text).toContain("The harbour town is described");
    expect(text).toContain("Its museums is described");
    expect(text).not.toContain("Imprint");
    // A header the page closes itself is furniture, even with an <article> (a weather box) inside.
    const teaser = `<!doctype html><html><head><title>News</title></head><body>
      <header><a href="/">Home</a><article class="weather">Sunny, 21 degrees, light wind from the west all day.</article></header>
      <main>${prose("The council vote")}${prose("The budget")}</main></body></html>`;
    const news = textOf(teaser);
    expect(news).toContain("The council vote is described");
    expect(news).not.toContain("Sunny");
  });

  it("keeps every entry of a listing page and the one line of a tiny page, without the navigation", () => {
    // A listing page: many short entries, no article for Readability to pick.
    const entries = Array.from(
      { length: 12 },
      (_, i) => `<div class="entry"><h3>Program ${i + 1}</h3><span>Credits: ${30 + i}</span></div>`,
    ).join("");
    const text = textOf(
      `<!doctype html><html><head><title>Programs</title></head><body><nav><a href="/">Home</a></nav><div class="grid">${entries}</div></body></html>`,
    );
    for (let i = 1; i <= 12; i++) expect(text).toContain(`Program ${i}`);
    expect(text).not.toContain("Home");
    expect(textOf("<html><body><p>Closed today.</p></body></html>")).toBe("Closed today.");
  });

  it("takes out of the article the boxes named as notices, affiliate notes, embed placeholders, newsletters, related articles, breadcrumbs or tags, but never an <article> nor a box holding most of the page", () => {
    const paragraph = (n: number) =>
      `<p>The orchard's ${n}th row was planted with an old variety of apple that ripens late and keeps well through the winter months.</p>`;
    const page = `<!doctype html><html><head><title>Orchard</title></head><body><article><h1>Orchard</h1>
      <div class="column editorial-disclaimer">This article is a reader's blog and not the view of the editors.</div>
      ${paragraph(1)}${paragraph(2)}
      <div class="relatedArticlesTextContainer"><span>Ten pears that ripen early in the season, and where to find them</span></div>
      ${paragraph(3)}<ul class="post-tags"><li>apples</li><li>winter</li></ul>
      <div class="signup newsletter-box">Get the gardening letter every Friday, free of charge and easy to cancel.</div>
      <aside class="shop-affiliate-note"><p>Buying through the nursery links above earns this site a small fee.</p></aside>
      <div class="video-embed-placeholder"><p>This video is shown once you accept the video host's cookies.</p></div>
      </article></body></html>`;
    const text = textOf(page);
    expect(text).toContain("3th row was planted");
    for (const gone of ["reader's blog", "Ten pears", "apples", "gardening letter", "a small fee", "host's cookies"])
      expect(text).not.toContain(gone);
    // A page whose whole text sits in a box with such a name keeps it.
    const wrapped = textOf(
      `<!doctype html><html><head><title>Orchard</title></head><body><div class="related-content"><h1>Orchard</h1>${paragraph(1)}${paragraph(2)}${paragraph(3)}</div></body></html>`,
    );
    expect(wrapped).toContain("2th row was planted");
    // So does an <article> whose classes hold such a word, however much else the page holds.
    const archive = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/archive/${i}">Orchard diary, week ${i + 1}</a></li>`,
    ).join("");
    const tagged = textOf(
      `<!doctype html><html><head><title>Orchard</title></head><body><article class="entry has-tags"><h1>Orchard</h1>${paragraph(1)}${paragraph(2)}</article><ul class="archive">${archive}</ul></body></html>`,
    );
    expect(tagged).toContain("1th row was planted");
  });

  it("leaves out the captions of pictures and short credit lines, but keeps a table's or a listing's caption, a caption outside a figure, and a gallery's captions", () => {
    const paragraph = (n: number) =>
      `<p>The harbour's ${n}th pier was rebuilt in stone after the storm, and the ferries to the islands leave from it twice a day.</p>`;
    const picture = `<figure><img src="/pier.jpg" alt=""><figcaption>Fishing boats at dawn. <small>© Harbour Photo Agency</small></figcaption></figure>`;
    const table = `<figure><figcaption>Ferry times in summer</figcaption><table><tr><td>Departs</td><td>09:00</td></tr></table></figure>`;
    const listing = `<figure><img src="/icon.svg" alt=""><pre>ferry --to islands</pre><figcaption>Booking from the terminal</figcaption></figure>`;
    const loose = `<div><img src="/step.jpg" alt=""><figcaption>Tie the rope to the second ring.</figcaption></div>`;
    const text = textOf(`<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>
      ${paragraph(1)}${picture}${paragraph(2)}${table}${paragraph(3)}${listing}${paragraph(4)}${loose}${paragraph(5)}</article></body></html>`);
    expect(text).toContain("2th pier was rebuilt");
    for (const gone of ["Fishing boats", "Photo Agency"]) expect(text).not.toContain(gone);
    for (const kept of ["Ferry times in summer", "Booking from the terminal", "Tie the rope"])
      expect(text).toContain(kept);
    // A credit set as a paragraph under a picture goes too; a paragraph about the sign is longer, and stays.
    const credited = textOf(`<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>
      ${paragraph(1)}<div><img src="/pier.jpg" alt=""><p>The old pier at dawn. | © Harbour Photo Agency</p></div>${paragraph(2)}
      <p>The museum's guide explains that a © sign beside a painting's title means the museum holds the rights to its reproductions, and that visitors may still photograph it for themselves.</p>${paragraph(3)}</article></body></html>`);
    expect(credited).not.toContain("Harbour Photo Agency");
    expect(credited).toContain("holds the rights to its reproductions");
    // A gallery's page: its captions are most of what it says.
    const shots = [
      "The lighthouse from the north beach in winter light",
      "The old customs house, now the harbour museum",
      "Nets drying on the quay after the morning catch",
    ];
    const gallery =
      textOf(`<!doctype html><html><head><title>Harbour photos</title></head><body><main><h1>Harbour photos</h1><p>Pictures of the harbour.</p>
      ${shots.map((shot, i) => `<figure><img src="/shot-${i}.jpg" alt=""><figcaption>${shot}</figcaption></figure>`).join("")}</main></body></html>`);
    for (const shot of shots) expect(gallery).toContain(shot);
  });
});

describe("the one-pass build and Readability's second attempts", () => {
  it("counts visible characters as a trimmed, whitespace-collapsed copy would, without making one", () => {
    for (const text of [
      "",
      "   ",
      " a ",
      "a\tb\n\nc",
      "\u00a0x\u2003y\u3000",
      "one  two\r\nthree ",
      "\ufeff\u2028end",
      "été à Zürich — 東京",
    ]) {
      expect(visibleLength(text)).toBe(text.replace(/\s+/g, " ").trim().length);
    }
  });

  it("decodes entities once and keeps the doctype and the attributes", () => {
    const { document } = precutDocument(
      `<!DOCTYPE html><html><body><p class="lead" title="a &amp; b">Fish &amp; chips &lt;3</p></body></html>`,
    );
    const p = document.querySelector("p.lead");
    expect(p?.textContent).toBe("Fish & chips <3");
    expect(p?.getAttribute("title")).toBe("a & b");
    expect(String(document.doctype)).toMatch(/html/i);
  });

  it("builds one <html> with <head> then <body> when the page puts markup before <html> or leaves tags out", () => {
    const article = `<article><h1>Planting notes</h1><p>${"Plants tell the story of the places they grew in, and of those who moved them. ".repeat(8)}</p></article>`;
    const pages = [
      `<style>p{}</style><title>Notes</title><meta name="x" content="y"><!doctype html><html lang="en"><head></head><body>${article}</body></html>`,
      `<!doctype html><title>Notes</title>${article}`,
      `<html><head><title>Notes</title></head>${article}<body><p>Last line.</p></body></html>`,
    ];
    for (const html of pages) {
      const { document } = precutDocument(html);
      const top = Array.from(document.documentElement.children).map((el) => el.localName);
      expect(top).toEqual(["head", "body"]);
      expect(document.querySelector("head title")?.textContent).toBe("Notes");
      expect(document.body.textContent).toContain("Plants tell the story");
      const extracted = extractHtml(html);
      expect(extracted.title).toBe("Notes");
      expect(extracted.text).toContain("Plants tell the story of the places they grew in");
    }
  });

  it("builds a page nested thousands of elements deep no deeper than its limit, keeping the text, and stops reading where too many tags are open", () => {
    const depthOf = (root: Element) => {
      let deepest = 0;
      const stack: [Element, number][] = [[root, 0]];
      while (stack.length) {
        const [element, depth] = stack.pop()!;
        deepest = Math.max(deepest, depth);
        for (const child of Array.from(element.children)) stack.push([child, depth + 1]);
      }
      return deepest;
    };
    const lead =
      "<p>The harbour opened in the spring, and its first ferries carried goods and passengers to the three islands.</p>";
    const deep = (depth: number, tag: string) =>
      `<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>${lead}${`<${tag}>`.repeat(depth)}<p>The ferries to the islands leave from the stone pier twice a day.</p>${`</${tag}>`.repeat(depth)}<p>Tickets are sold on board.</p></article></body></html>`;
    const deepest = MAX_OPEN_TAGS - 10;
    for (const tag of ["div", "span", "li"]) {
      const { document } = precutDocument(deep(deepest, tag));
      expect(depthOf(document.documentElement as unknown as Element)).toBeLessThanOrEqual(MAX_NESTING);
      const text = extractHtml(deep(deepest, tag)).text;
      expect(text).toMatch(
        /ferries carried goods[^]*leave from the stone pier twice a day[^]*Tickets are sold on board/,
      );
    }
    // A page within the limit is built as written.
    const { document } = precutDocument(deep(MAX_NESTING - 10, "div"));
    expect(depthOf(document.documentElement as unknown as Element)).toBe(MAX_NESTING - 10 + 3);
    // Past MAX_OPEN_TAGS open tags the page is read no further: what came before stays.
    const past = extractHtml(deep(100_000, "div")).text;
    expect(past).toContain("ferries carried goods");
    expect(past).not.toContain("Tickets are sold");
  });

  it("reads a page Readability would take too long over (elements by the ten thousand, or long text nested deep) as its cleaned body", () => {
    const lead =
      "<p>The harbour opened in the spring, and its first ferries carried goods and passengers to the three islands.</p>";
    const page = (inside: string, depth: number) =>
      `<!doctype html><html><head><title>Harbour</title></head><body><nav><a href="/">Home</a></nav><main><h1>Harbour</h1>${lead}${"<div>".repeat(depth)}${inside}${"</div>".repeat(depth)}<p>Tickets are sold on board.</p></main></body></html>`;
    expect(withinReadabilityBounds(precutDocument(page("<b>pier</b> ".repeat(100), 20)))).toBe(true);
    expect(withinReadabilityBounds(precutDocument(page("<b>pier</b> ".repeat(30_000), 20)))).toBe(false);
    expect(withinReadabilityBounds(precutDocument(page(`<p>${"The pier is stone ".repeat(2_000)}</p>`, 100)))).toBe(
      false,
    );
    for (const html of [
      page("<b>pier</b> ".repeat(30_000), 20),
      page(`<p>${"The pier is stone ".repeat(2_000)}</p>`, 100),
    ]) {
      const text = extractHtml(html).text;
      expect(text).toMatch(/ferries carried goods[^]*pier[^]*Tickets are sold on board/);
      expect(text).not.toContain("Home");
    }
  });

  it("takes out the small box around an e-mail or search field, and only the box", () => {
    const story = "The council voted to keep the old library open for another ten years, after a long debate. ".repeat(
      6,
    );
    const html = `<html><head><title>Library</title></head><body><div class="content">
      <h1>Library stays open</h1><p>${story}</p>
      <div><h3>Stay in the loop</h3><p>Our weekly letter, every Friday.</p><form><input type="email" name="address"><button>Go</button></form></div>
      <p>${story}</p>
      <div><p>Looking for something?</p><input type="search"></div>
      <div><p>Write to us:</p><input type="text" name="mail_field"></div>
      <p>The last paragraph of the story.</p>
    </div></body></html>`;
    const text = extractHtml(html).text;
    expect(text).toContain("The council voted");
    expect(text).not.toContain("Stay in the loop");
    expect(text).not.toContain("weekly letter");
    expect(text).not.toContain("Looking for something");
    expect(text).not.toContain("Write to us");
    expect(text).toContain("The last paragraph of the story.");
    // A field whose nearest container holds a long text takes nothing with it.
    expect(
      precutDocument(`<html><body><article><p>${story}<input type="email"></p></article></body></html>`).document.body
        .textContent,
    ).toContain("The council voted");
  });

  it("still finds the two Readability passes it skips under their names (an upgrade renaming them would bring their cost back unnoticed)", () => {
    const passes = Readability.prototype as unknown as Record<string, unknown>;
    expect(typeof passes._fixRelativeUris).toBe("function");
    expect(typeof passes._isProbablyVisible).toBe("function");
  });

  // Under 500 characters Readability tries again with looser rules, from its copy of the body as it
  // was before its first attempt: the lead paragraphs and the rules after it change nothing here.
  const shortPages = [
    `<html><head><title>T</title></head><body><div class="sidebar">Menu one</div><div id="content">First line<br><br>Second paragraph with <font color=red>red</font> words.<br><br>Third line here.</div><div class="comment">A comment that is short.</div></body></html>`,
    `<html><body><div class="main"><h1>Opening hours</h1><p>We are open from 9 to 5 on weekdays.</p><div class="share">Share this</div><p>Call 555-1234.</p></div></body></html>`,
  ];
  it.each(shortPages.map((html, i) => [i, html]))(
    "short page %i: the same blocks as Readability reading a fresh copy of the page",
    (_i, html) => {
      const reference = new Readability<DomNode>(precutDocument(html as string).document as unknown as Document, {
        keepClasses: true,
        serializer: (node) => node as unknown as DomNode,
      }).parse();
      const want = blocksOf(reference!.content!).map((b) => b.text);
      const got = extractHtml(html as string)
        .blocks.filter((b) => !b.pathOnly)
        .map((b) => b.text);
      expect(got).toEqual(want);
    },
  );
});

describe.skipIf(!existsSync(FIXTURES))("HTML extraction on real pages (shared fixtures)", () => {
  const names = existsSync(FIXTURES)
    ? readdirSync(FIXTURES).filter((n) => existsSync(path.join(FIXTURES, n, "source.html")))
    : [];
  it.each(names)("%s: the main text is kept and boilerplate left out", (name) => {
    const source = readFileSync(path.join(FIXTURES, name, "source.html"), "utf8");
    const expected = extractHtml(
      `<body>${readFileSync(path.join(FIXTURES, name, "expected.html"), "utf8")}</body>`,
    ).text;
    const result = extractHtml(source);
    const { precision, recall } = overlap(words(result.text), words(expected));
    expect(recall, `recall of ${name}`).toBeGreaterThanOrEqual(0.95);
    expect(precision, `precision of ${name}`).toBeGreaterThanOrEqual(0.78);
    expect(result.title.length).toBeGreaterThan(0);
    const chunks = chunkBlocks(result.blocks);
    // Every word of the body text reaches a chunk (headings travel as the chunks' heading paths).
    const bodyWords = words(
      result.blocks
        .filter((b) => b.kind === "text")
        .map((b) => b.text)
        .join(" "),
    );
    expect(overlap(bodyWords, words(chunks.map((c) => c.text).join(" "))).precision).toBe(1);
  });
});

describe("text that reaches the database", () => {
  it("drops NUL and other control characters and halves of surrogate pairs, keeping line breaks and whole emoji", async () => {
    const { default: extractAndChunk } = await import("../crawl/extract-worker");
    const html =
      "<html><head><title>Fees\u0000 2026</title></head><body><article><h1>Fees</h1><p>Tuition is $12,400\u0000 a year \ud800for residents 🎓.<br>Line\u0007 two.</p></article></body></html>";
    const page = extractAndChunk({ html, rules: { selectors: [] } as never });
    expect(page.title).toBe("Fees 2026");
    const text = page.chunks.map((c) => c.text).join("\n");
    expect(text).toContain("Tuition is $12,400 a year for residents 🎓.\nLine two.");
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\ud800-\udfff]/u);
  });

  it("reads a fetched page's UTF-8 bytes as its markup, a view into a larger buffer included", async () => {
    const { default: extractAndChunk } = await import("../crawl/extract-worker");
    const html = article(`${prose("Été à Zürich")}<p>東京の大学 🎓 — “quoted”.</p>`, "Café");
    const framed = Buffer.from(`before${html}after`);
    const bytes = framed.subarray(Buffer.byteLength("before"), framed.length - Buffer.byteLength("after"));
    const fromBytes = extractAndChunk({ html: bytes, rules: {} });
    expect(fromBytes).toEqual(extractAndChunk({ html, rules: {} }));
    expect(fromBytes.title).toBe("Café");
    expect(fromBytes.chunks.map((c) => c.text).join("\n")).toContain("東京の大学 🎓 — “quoted”.");
  });
});
