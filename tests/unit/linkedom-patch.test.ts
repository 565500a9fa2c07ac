import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parseHTML } from "linkedom";

/**
 * linkedom is patched (patches/linkedom+*.patch) so a node makes its map of event listeners on its
 * first addEventListener instead of in its constructor: extraction builds a few thousand nodes a
 * page and never listens to any, and the Map plus the WeakMap entry per node were ~18 % of a page's
 * extraction CPU (decision 017). Listening must work exactly as before.
 */
// The package exports no deep paths: the two builds' files are reached from its CommonJS entry.
const require = createRequire(import.meta.url);
const packageRoot = path.resolve(path.dirname(require.resolve("linkedom")), "..");
const eventTargetOf = async (build: "cjs" | "esm") =>
  (
    (await import(pathToFileURL(path.join(packageRoot, build, "interface", "event-target.js")).href)) as {
      EventTarget: new () => object;
    }
  ).EventTarget;
const CommonJsEventTarget = await eventTargetOf("cjs");
const ModuleEventTarget = await eventTargetOf("esm");

describe("linkedom's lazily made listener maps", () => {
  it("is applied to both of the package's builds", () => {
    for (const build of [CommonJsEventTarget, ModuleEventTarget]) {
      const constructorSource = /constructor\(\)\s*\{[^}]*\}/.exec(build.toString())?.[0] ?? "";
      expect(constructorSource).not.toContain("new Map");
    }
  });

  it("still delivers events, bubbles them, honours once and forgets removed listeners", () => {
    const { document, Event } = parseHTML("<html><body><main><p id=inner>text</p></main></body></html>");
    const inner = document.getElementById("inner")!;
    const main = document.querySelector("main")!;
    const heard: string[] = [];
    const onInner = () => heard.push("inner");
    inner.addEventListener("ping", onInner);
    inner.addEventListener("ping", () => heard.push("once"), { once: true });
    main.addEventListener("ping", () => heard.push("main"));

    inner.dispatchEvent(new Event("ping", { bubbles: true }));
    inner.dispatchEvent(new Event("ping", { bubbles: true }));
    inner.removeEventListener("ping", onInner);
    inner.dispatchEvent(new Event("ping", { bubbles: true }));

    expect(heard).toEqual(["inner", "once", "main", "inner", "main", "main"]);
  });

  it("lets a node that never listened be dispatched to and have listeners removed", () => {
    const { document, Event } = parseHTML("<html><body><p>quiet</p></body></html>");
    const quiet = document.querySelector("p")!;
    expect(() => quiet.removeEventListener("ping", () => {})).not.toThrow();
    expect(quiet.dispatchEvent(new Event("ping"))).toBe(true);
  });
});

/**
 * The same patch keeps compiled selectors (shared/matches.js): extraction asks for the same few
 * selectors on every page and compiling was a few percent of a page's CPU. A selector's test must
 * not depend on the document or element it was first compiled for.
 */
describe("linkedom's kept compiled selectors", () => {
  it("answers each document and element by its own nodes", () => {
    const first = parseHTML("<html><body><div class=a><p>1</p></div><p class=b>2</p></body></html>").document;
    const second = parseHTML(
      "<html><body><p class=b>3</p><section><div class=a><p>4</p><p>5</p></div></section></body></html>",
    ).document;
    const texts = (nodes: ArrayLike<{ textContent: string | null }>) => Array.from(nodes, (n) => n.textContent);
    expect(texts(first.querySelectorAll("div.a p, p.b"))).toEqual(["1", "2"]);
    expect(texts(second.querySelectorAll("div.a p, p.b"))).toEqual(["3", "4", "5"]);
    expect(second.querySelector("p.b")!.matches("p.b")).toBe(true);
    expect(first.querySelector("div.a p")!.matches("p.b")).toBe(false);
  });

  it("still reads :scope relative to the element asked", () => {
    const { document } = parseHTML(
      "<html><body><div id=x><p>a</p><div id=y><p>b</p><p>c</p></div></div></body></html>",
    );
    const direct = (id: string) =>
      Array.from(document.getElementById(id)!.querySelectorAll(":scope > p"), (p) => p.textContent);
    expect(direct("x")).toEqual(["a"]);
    expect(direct("y")).toEqual(["b", "c"]);
  });

  it("keeps HTML's case-blind tag names apart from XML's exact ones", () => {
    const html = parseHTML("<html><body><Item>h</Item></body></html>").document;
    const xml = new (parseHTML("").DOMParser)().parseFromString(
      "<root><Item>x</Item><item>y</item></root>",
      "text/xml",
    );
    expect(Array.from(html.querySelectorAll("ITEM"), (n) => n.textContent)).toEqual(["h"]);
    expect(Array.from(xml.querySelectorAll("Item"), (n) => n.textContent)).toEqual(["x"]);
    expect(Array.from(xml.querySelectorAll("item"), (n) => n.textContent)).toEqual(["y"]);
  });
});

/**
 * The patch also upper-cases each tag name once (shared/utils.js): Readability reads `tagName` on
 * every node it walks, and each read made a new upper-case string (~5 % of a page's extraction).
 */
describe("linkedom's remembered upper-case tag names", () => {
  const localCaseOf = async (build: "cjs" | "esm") =>
    (
      (await import(pathToFileURL(path.join(packageRoot, build, "shared", "utils.js")).href)) as {
        localCase: (node: object) => string;
      }
    ).localCase;

  it("is applied to both of the package's builds", async () => {
    for (const build of ["cjs", "esm"] as const)
      expect((await localCaseOf(build)).toString()).toContain("upperCase(localName)");
  });

  it("names HTML elements in upper case, custom ones included, and leaves XML names as written", () => {
    const { document } = parseHTML(
      "<html><body><section><my-widget>w</my-widget><p>a</p><p>b</p></section></body></html>",
    );
    expect(Array.from(document.querySelectorAll("section *"), (node) => node.tagName)).toEqual(["MY-WIDGET", "P", "P"]);
    expect(document.querySelector("section")!.nodeName).toBe("SECTION");
    const xml = new (parseHTML("").DOMParser)().parseFromString("<root><Item/><item/></root>", "text/xml");
    expect(Array.from(xml.querySelectorAll("*"), (node) => node.tagName)).toEqual(["root", "Item", "item"]);
  });
});
