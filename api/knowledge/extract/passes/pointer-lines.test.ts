import { describe, expect, it } from "vitest";
import { EXTRACTION_PASSES, extractHtml } from "../extract-html";
import { blocksOf, type DomNode } from "../html-blocks";
import { isPointerLine } from "./pointer-lines";
import { parseHTML } from "linkedom";

const blocksOfMarkup = (markup: string) =>
  blocksOf(parseHTML(`<!doctype html><html><body>${markup}</body></html>`).document.body as unknown as DomNode);

describe("pointer lines", () => {
  it("counts the characters of a block that are link text, in links around blocks too", () => {
    const [line, card, plain] =
      blocksOfMarkup(`<p><em>Read also: </em><a href="/b"><strong>The river</strong> in spring</a></p>
      <a href="/c"><div>A whole teaser card</div></a><p>No link at all.</p>`);
    expect(line).toMatchObject({ text: "Read also: The river in spring", linkChars: "The river in spring".length });
    expect(card).toMatchObject({ text: "A whole teaser card", linkChars: "A whole teaser card".length });
    expect(plain.linkChars).toBeUndefined();
  });

  it("is a short label and a link filling most of the line, and nothing else", () => {
    const [pointer, sentence, bareLink, item, twoLines] =
      blocksOfMarkup(`<p>See also: <a href="/x">How the bridge was built</a></p>
      <p>Note: the <a href="/s">schedule</a> changes in winter, when the ferry runs twice a day.</p>
      <p><a href="/r">Download the annual report</a></p>
      <ul><li>Sources: <a href="/y">National archive of the bridge</a></li></ul>
      <p>Contact: <a href="/m">Office of the harbour master</a><br>Quay 4</p>`);
    expect(isPointerLine(pointer)).toBe(true);
    expect(isPointerLine(sentence)).toBe(false);
    expect(isPointerLine(bareLink)).toBe(false);
    expect(isPointerLine(item)).toBe(false);
    expect(isPointerLine(twoLines)).toBe(false);
  });

  it("is left out of what a page's extraction keeps, wherever it stands between the paragraphs", () => {
    const page = `<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>
      <p>The harbour was dredged in the autumn, so that the larger ferries can berth at the old quay again.</p>
      <p><strong>Czytaj też: </strong><a href="/other">Nowy most nad rzeką</a></p>
      <p>The works took eleven weeks and were paid for by the port authority and the town together.</p>
      <p>Note: the <a href="/s">timetable</a> changes in winter, when the ferry runs twice a day only.</p>
      <p>The quay itself will be repaired next year, when the last of the old cranes is taken down.</p></article></body></html>`;
    const { text } = extractHtml(page);
    expect(text).toContain("paid for by the port authority");
    expect(text).toContain("when the ferry runs twice a day only.");
    expect(text).not.toContain("Czytaj też");
    expect(text).not.toContain("Nowy most");
    // Left out by name, as bench/extraction-passes.ts weighs each pass, the line stays.
    expect(EXTRACTION_PASSES).toContain("pointer lines");
    const without = extractHtml(page, {}, { withoutPasses: new Set(["pointer lines"]) });
    expect(without.text).toContain("Czytaj też: Nowy most nad rzeką");
  });

  it("takes out a run of headline-long links set as paragraphs, but not one alone, a short one or a list", () => {
    const page = `<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>
      <p>The harbour was dredged in the autumn, so that the larger ferries can berth at the old quay again.</p>
      <p><a href="/report">Read the port authority's full report on the dredging</a></p>
      <p>The works took eleven weeks and were paid for by the port authority and the town together.</p>
      <p><a href="/pdf">Download the map</a></p>
      <p>The quay itself will be repaired next year, when the last of the old cranes is taken down.</p>
      <h2>More to read</h2>
      <p><a href="/a">Ten quiet beaches for an autumn weekend</a></p>
      <p><a href="/b">How the old lighthouse was moved inland</a></p>
      <ul><li><a href="/c">The ferry timetable for the winter months</a></li><li><a href="/d">Where to park near the quay in summer</a></li></ul>
      </article></body></html>`;
    const { text } = extractHtml(page);
    expect(text).toContain("Read the port authority's full report on the dredging");
    expect(text).toContain("Download the map");
    expect(text).not.toContain("Ten quiet beaches");
    expect(text).not.toContain("old lighthouse");
    expect(text).toContain("The ferry timetable for the winter months");
  });

  it("counts a headline's words in a script written without spaces as the word breaker cuts them", () => {
    const page = `<!doctype html><html lang="zh"><head><title>港口</title></head><body><article><h1>港口疏浚完成</h1>
      <p>港口在秋天完成了疏浚工程，较大的渡轮现在又可以停靠在旧码头了。工程持续了十一周，由港务局和市政府共同出资。</p>
      <p>码头本身将在明年修复，届时最后一台旧起重机也将被拆除。市民可以在港务局的网站上查看详细的施工计划。</p>
      <p><a href="/a">秋季周末最安静的十个海滩推荐给大家</a></p>
      <p><a href="/b">老灯塔是如何被整体搬迁到内陆去的</a></p>
      </article></body></html>`;
    const { text } = extractHtml(page);
    expect(text).toContain("港口在秋天完成了疏浚工程");
    expect(text).not.toContain("最安静的十个海滩");
    expect(text).not.toContain("老灯塔");
  });
});
