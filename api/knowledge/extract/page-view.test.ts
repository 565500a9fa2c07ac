import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { PageView, type ViewedDocument, type ViewedElement } from "./page-view";

const page = `<html><head><title>T</title><meta name="Description" content="d"></head><body>
  <div class="a"><ul><li>one</li></ul></div>
  <main><section><div class="b"><a href="/x">link</a> text</div></section></main>
  <div role="main"><ol><li>two</li></ol></div><div role="MAIN"><dl></dl></div><p>after</p></body></html>`;

function viewOf(html: string) {
  const { document } = parseHTML(html);
  return { document, view: new PageView(document as unknown as ViewedDocument) };
}
const names = (elements: ViewedElement[]) => elements.map((element) => element.localName);

describe("PageView", () => {
  it("answers what querySelector and querySelectorAll answer, in the same order, from one walk", () => {
    const { document, view } = viewOf(page);
    expect(view.first("title")).toBe(document.querySelector("title"));
    expect(view.named("li")).toEqual(Array.from(document.querySelectorAll("li")));
    const body = document.body as unknown as ViewedElement;
    expect(view.below(body)).toEqual(Array.from(document.body.querySelectorAll("*")));
    const main = document.querySelector("main") as unknown as ViewedElement;
    expect(names(view.below(main))).toEqual(["section", "div", "a"]);
  });

  it("knows what stands inside an <article>, a <main> or [role=main] (the role's value as written)", () => {
    const { document, view } = viewOf(page);
    const inside = view.elements.filter((element) => view.inContent(element));
    expect(inside).toEqual(Array.from(document.querySelectorAll("main *, article *, [role=main] *")));
    expect(names(inside)).toEqual(["section", "div", "a", "ol", "li"]);
  });

  it("measures an element's text and link share once", () => {
    const { document, view } = viewOf(page);
    const box = document.querySelector("div.b") as unknown as ViewedElement;
    expect(view.textOf(box)).toBe("link text");
    expect(view.linkShareOf(box)).toBeCloseTo(4 / 8);
    box.textContent = "changed";
    expect(view.textOf(box)).toBe("link text");
  });
});
