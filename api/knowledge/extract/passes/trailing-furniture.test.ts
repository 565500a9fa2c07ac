import { describe, expect, it } from "vitest";
import { extractHtml } from "../extract-html";
import type { Block } from "../html-blocks";
import { withoutTrailingFurniture } from "./trailing-furniture";

const paragraph = (subject: string): Block => ({
  kind: "text",
  text: `${subject} is told at some length here, in a paragraph long enough to be taken for the article's own text.`,
});
const text = (line: string, item = false): Block =>
  item ? { kind: "text", text: line, item } : { kind: "text", text: line };
const heading = (line: string, level = 2): Block => ({ kind: "heading", level, text: line });

describe("withoutTrailingFurniture", () => {
  it("drops the labels and link lines after the article's last paragraph, and a heading left with nothing under it", () => {
    const blocks = [
      heading("Campus"),
      paragraph("The campus"),
      text("Continue reading the main story"),
      heading("Related"),
      text("Mehr zum Thema"),
      text("- Anzeige-"),
    ];
    expect(withoutTrailingFurniture(blocks)).toEqual([heading("Campus"), paragraph("The campus")]);
  });

  it("keeps sentences, list entries, table rows, lines of several lines, figures, e-mail and 'Label: value' lines, and their headings", () => {
    const kept = [
      paragraph("Applying"),
      text("Ah, humanity!"),
      text("Nothing has been said since."),
      heading("Checklist"),
      text("Transcript", true),
      text("Essay | optional", true),
      heading("Contact", 3),
      text("Office of Admissions\nFounders Hall"),
      text("admissions@example.edu"),
      text("(555) 010-1891"),
      text("Location: Main Hall"),
    ];
    expect(withoutTrailingFurniture(kept)).toEqual(kept);
  });

  it("keeps a directory's names, a run of five short headings with nothing under them, but not teasers' headlines", () => {
    const names = ["Accounting (BA)", "Biology (BS)", "Chemistry (BS)", "Nursing (BSN)", "Theatre (BA)"].map((name) =>
      heading(name, 3),
    );
    expect(withoutTrailingFurniture([paragraph("Our programs"), ...names])).toEqual([
      paragraph("Our programs"),
      ...names,
    ]);
    expect(withoutTrailingFurniture([paragraph("Our programs"), ...names.slice(0, 4)])).toEqual([
      paragraph("Our programs"),
    ]);
    // A run of any length is read once: 100,000 names are kept whole.
    const many = Array.from({ length: 100_000 }, (_, at) => heading(`Course ${at}`, 3));
    expect(withoutTrailingFurniture([paragraph("Our courses"), ...many])).toHaveLength(100_001);
    const headlines = [
      "Ten quiet beaches for an autumn weekend",
      "A week in the hills without a car",
      "Night trains return to the valley line",
      "What the new timetable means for you",
      "Five cafes worth the detour this winter",
    ].map((line) => heading(line, 3));
    expect(withoutTrailingFurniture([paragraph("The story"), ...headlines])).toEqual([paragraph("The story")]);
  });

  it("keeps a program index built of linked cards when its page is extracted", () => {
    const programs = ["Accounting", "Biology", "Chemistry", "Economics", "History", "Nursing", "Physics", "Theatre"];
    const { text } =
      extractHtml(`<!doctype html><html><head><title>Programs</title></head><body><header><nav><a href="/">Home</a></nav></header>
      <main><h1>Undergraduate programs</h1><p>Northfield offers eight bachelor's degrees across the arts, sciences and professions, each with small classes and a faculty mentor.</p>
      <div class="grid">${programs.map((name) => `<div class="card"><h3><a href="/programs/${name.toLowerCase()}">${name} (BA)</a></h3></div>`).join("")}</div></main></body></html>`);
    for (const name of programs) expect(text).toContain(`${name} (BA)`);
  });

  it("looks only after the last paragraph, and leaves a page without one as it is", () => {
    const blocks = [
      text("Menu"),
      paragraph("The first part"),
      text("Share"),
      paragraph("The second part"),
      text("Share"),
    ];
    expect(withoutTrailingFurniture(blocks)).toEqual(blocks.slice(0, 4));
    const short = [heading("Hours"), text("Open daily"), text("Closed on holidays")];
    expect(withoutTrailingFurniture(short)).toEqual(short);
  });

  it("is applied to what a page's extraction keeps", () => {
    const page = `<!doctype html><html><head><title>Library</title></head><body><article><h1>Library</h1>
      <p>The library opens early on weekdays and late on weekends, with quiet rooms on every floor and a café by the door.</p>
      <p>Its reading room seats two hundred, and a further hundred seats wait in the new wing, which opened last spring.</p>
      <p><a href="/next">See what it can do for you</a></p><h3>More from the blog</h3></article></body></html>`;
    const { text: extracted } = extractHtml(page);
    expect(extracted).toContain("which opened last spring.");
    expect(extracted).not.toContain("See what it can do for you");
    expect(extracted).not.toContain("More from the blog");
  });
});
