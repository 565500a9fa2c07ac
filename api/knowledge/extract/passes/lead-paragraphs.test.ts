import { describe, expect, it } from "vitest";
import { extractHtml } from "../extract-html";
import type { Block } from "../html-blocks";
import { withLeadParagraphs } from "./lead-paragraphs";

const paragraph = (subject: string): Block => ({
  kind: "text",
  text: `${subject} is told at some length here, in a paragraph long enough to be taken for the article's own text.`,
});
const text = (line: string, linkChars?: number): Block =>
  linkChars ? { kind: "text", text: line, linkChars } : { kind: "text", text: line };
const heading = (line: string, level = 2): Block => ({ kind: "heading", level, text: line });

describe("withLeadParagraphs", () => {
  it("takes the paragraphs above the article up to the main heading, passing over a byline and a date", () => {
    const article = [paragraph("The body"), paragraph("The rest")];
    const page = [
      text("Home", 4),
      heading("Campus news", 1),
      paragraph("The lead"),
      text("21 January 2026"),
      text("By Ann Lee", 10),
      ...article,
    ];
    expect(withLeadParagraphs(page, article)).toEqual([paragraph("The lead"), ...article]);
  });

  it("takes a standfirst set as a long heading as text, and a heading over a taken paragraph", () => {
    const standfirst =
      "The board met on Tuesday and agreed to keep the library open late through the whole of the exam season.";
    const article = [paragraph("The body")];
    const page = [
      heading("Library hours", 1),
      heading(standfirst),
      heading("What changes"),
      paragraph("The first change"),
      ...article,
    ];
    expect(withLeadParagraphs(page, article)).toEqual([
      text(standfirst),
      heading("What changes"),
      paragraph("The first change"),
      ...article,
    ]);
  });

  it("takes no teaser or list entry, and nothing the article already holds", () => {
    const article = [paragraph("The body")];
    const title = heading("Campus news", 1);
    const teaser = { ...paragraph("Another story"), linkChars: 90 };
    expect(withLeadParagraphs([title, teaser, ...article], article)).toEqual(article);
    expect(withLeadParagraphs([title, { ...paragraph("An entry"), item: true }, ...article], article)).toEqual(article);
    const joined = [{ kind: "text" as const, text: `${paragraph("The lead").text}\n${paragraph("The body").text}` }];
    expect(withLeadParagraphs([title, paragraph("The lead"), paragraph("The body")], joined)).toEqual(joined);
    expect(withLeadParagraphs([title, text("Menu"), text("Search")], [paragraph("Unplaced")])).toEqual([
      paragraph("Unplaced"),
    ]);
  });

  it("takes nothing unless the walk reaches the page's main heading: a notice above an untitled article, or beyond a run of lines", () => {
    const article = [paragraph("The body")];
    const notice = {
      kind: "text" as const,
      text: "We use cookies and analytics tools to make this site easier to use for everyone who visits it.",
    };
    expect(withLeadParagraphs([notice, ...article], article)).toEqual(article);
    expect(
      withLeadParagraphs(
        [heading("Campus news", 1), paragraph("A sidebar"), text("Share"), text("Print"), text("Mail"), ...article],
        article,
      ),
    ).toEqual(article);
  });

  it("takes a paragraph the page's description repeats wherever the walk stops, a deck set as a heading as text", () => {
    const article = [paragraph("The body")];
    const deck = "The board met on Tuesday and agreed to keep the library open late through the exam season.";
    const lines = [text("By Ann Lee"), text("21 January 2026"), text("Photo: the reading room"), text("Share")];
    const page = [heading("Library hours", 1), heading(deck, 2), ...lines, ...article];
    expect(withLeadParagraphs(page, article)).toEqual(article);
    expect(withLeadParagraphs(page, article, [deck])).toEqual([text(deck), ...article]);
    // No title above the article: the description still names its summary.
    expect(withLeadParagraphs([text(deck), ...lines, ...article], article, [`  ${deck.toUpperCase()} `])).toEqual([
      text(deck),
      ...article,
    ]);
    // A description cut short names the paragraph it opens.
    expect(withLeadParagraphs(page, article, [`${deck.slice(0, 70)}…`])).toEqual([text(deck), ...article]);
    // One far longer than any summary is not read.
    expect(withLeadParagraphs(page, article, [`${deck} ${"More words. ".repeat(100)}`])).toEqual(article);
  });

  it("takes no paragraph that says more than the description, nor a tagline above the main heading", () => {
    const article = [paragraph("The body")];
    const deck = "The board met on Tuesday and agreed to keep the library open late through the exam season.";
    const captioned = text(`${deck} Photo: Ann Lee / City Library`);
    expect(
      withLeadParagraphs(
        [heading("Library hours", 1), captioned, ...[1, 2, 3].map((n) => text(`Line ${n}`)), ...article],
        article,
        [deck],
      ),
    ).toEqual(article);
    const tagline = text("The city library lends books, films and music to everyone who lives or works in the city.");
    const page = [
      tagline,
      text("Home"),
      heading("Library hours", 1),
      text("By Ann Lee"),
      text("21 January 2026"),
      text("Share"),
      ...article,
    ];
    expect(withLeadParagraphs(page, article, [tagline.text])).toEqual(article);
  });

  it("is applied to what a page's extraction keeps: a lead in the article's header, outside the element Readability picks", () => {
    const body = ["arrivals", "the timetable", "the platforms", "the ticket office"]
      .map(
        (topic) =>
          `<p>The station's ${topic} are described here in a long paragraph, with commas, clauses, and enough words to be the article's text.</p>`,
      )
      .join("");
    const page = `<!doctype html><html><head><title>Station</title></head><body><main>
      <header class="intro"><h1>The station reopens</h1>
        <p class="lead">After two years of building work the station reopens on Monday, with a new hall and four platforms.</p>
        <p>21 January 2026</p><p><a href="/ann">Ann Lee</a></p></header>
      <div class="story">${body}</div></main></body></html>`;
    const { text: extracted } = extractHtml(page);
    expect(extracted).toContain("the station reopens on Monday, with a new hall");
    expect(extracted.indexOf("reopens on Monday")).toBeLessThan(extracted.indexOf("arrivals"));
    expect(extracted).not.toContain("21 January 2026");
    expect(extracted).not.toContain("Ann Lee");
  });

  it("reads the page's description for its summary when a page is extracted", () => {
    const body = ["arrivals", "the timetable", "the platforms", "the ticket office"]
      .map(
        (topic) =>
          `<p>The station's ${topic} are described here in a long paragraph, with commas, clauses, and enough words to be the article's text.</p>`,
      )
      .join("");
    const deck = "After two years of building work the station reopens on Monday, with a new hall and four platforms";
    const page = (description: string) => `<!doctype html><html><head><title>Station</title>
      <meta property="og:description" content="${description}"></head><body><main>
      <header><h1>The station reopens</h1><h2 class="deck">${deck}</h2>
        <p>21 January 2026</p><p><a href="/ann">Ann Lee</a></p><p>Updated at noon</p><figure><figcaption>The new hall</figcaption></figure></header>
      <div class="story">${body}</div></main></body></html>`;
    expect(extractHtml(page("A station")).text).not.toContain(deck);
    const { text: extracted, blocks } = extractHtml(page(deck));
    expect(extracted.indexOf(deck)).toBeLessThan(extracted.indexOf("arrivals"));
    expect(blocks.find((block) => block.text === deck)?.kind).toBe("text");
    expect(extracted).not.toContain("Updated at noon");
  });
});
