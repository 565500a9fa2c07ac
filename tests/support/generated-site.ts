/**
 * Article pages of the shape real news and reference sites have (navigation, breadcrumbs, an h1
 * title, paragraphs that link to other articles by their titles, a related list, a footer), made
 * from one small shared vocabulary, so that the words of any title are also scattered through the
 * text of many other pages. Deterministic for a seed. What finds a page here is its title: the
 * case retrieval must get right when a visitor asks in the words of a page's title or heading.
 */

const VOCABULARY = (
  "archive library river mountain harbor bridge railway station museum garden forest valley island weather season " +
  "signal pattern structure framework process method analysis sample model theory practice evidence report review " +
  "community council policy budget project program schedule meeting proposal agreement contract engineer designer " +
  "operator teacher student researcher editor reader visitor copper timber granite glass canvas paper cotton silver " +
  "marble clay grain coffee olive northern coastal rural urban alpine tropical algorithm protocol interface storage " +
  "memory cache latency packet socket festival concert theatre gallery novel poem painting recipe journey voyage"
).split(" ");
const TOPICS = [
  "Urban Planning",
  "Marine Biology",
  "Public Libraries",
  "Coffee Trade",
  "Bridge Design",
  "Forest Ecology",
  "Network Protocols",
  "Glass Making",
];

/** A small fast generator of numbers in [0, 1) (mulberry32), so a seed always gives the same site. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedPage {
  path: string;
  title: string;
  html: string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function generateSite(pageCount: number, seed = 1): GeneratedPage[] {
  const random = randomFrom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const words = (count: number) => Array.from({ length: count }, () => pick(VOCABULARY)).join(" ");
  const titles = Array.from(
    { length: pageCount },
    () => `${pick(TOPICS)}: ${capitalised(words(3 + Math.floor(random() * 3)))}`,
  );
  const paths = titles.map((_, index) => `/articles/${String(index + 1).padStart(4, "0")}.html`);
  const link = (index: number) => `<a href="${paths[index]}">${titles[index]}</a>`;
  const sentence = () => `${capitalised(words(8 + Math.floor(random() * 12)))}.`;
  const paragraph = () => {
    const sentences = Array.from({ length: 3 + Math.floor(random() * 4) }, sentence);
    // Other articles cited by their titles, as real pages do: a title's words are in many texts.
    if (random() < 0.6) sentences.push(`See ${link(Math.floor(random() * pageCount))}.`);
    return `<p>${sentences.join(" ")}</p>`;
  };
  return titles.map((title, index) => {
    const related = Array.from({ length: 5 }, () => `<li>${link(Math.floor(random() * pageCount))}</li>`).join("");
    const nav = TOPICS.map((topic) => `<a href="/topics/${encodeURIComponent(topic)}">${topic}</a>`).join(" ");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | The Example Gazette</title></head>
<body><header><nav aria-label="Sections">${nav}</nav></header>
<nav class="breadcrumbs"><a href="/">Home</a> › <span>${title.split(":")[0]}</span></nav>
<main><article><h1>${title}</h1><p class="byline">By the editors</p>
${Array.from({ length: 4 + Math.floor(random() * 4) }, paragraph).join("\n")}
<h2>${capitalised(words(2))}</h2>${paragraph()}${paragraph()}
</article><aside><h2>Related</h2><ul>${related}</ul></aside></main>
<footer><a href="/about">About us</a> <a href="/privacy">Privacy policy</a> © The Example Gazette</footer></body></html>`;
    return { path: paths[index], title, html };
  });
}
