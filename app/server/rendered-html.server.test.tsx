import { PassThrough, type Writable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { pageCollector } from "./rendered-html.server";

const TRICKY = "Café naïve — “quoted” … 😀👩🏽‍💻 مرحبا بكم 你好，世界";

/** A page of `cells` short elements, then a field holding TRICKY, rendered into `destination`. */
function render(cells: number, destination: Writable) {
  const { pipe } = renderToPipeableStream(
    <main>
      {Array.from({ length: cells }, (_, i) => (
        <span key={i}>{i % 10}</span>
      ))}
      <textarea defaultValue={TRICKY} />
    </main>,
    {
      onAllReady: () => pipe(destination),
      onError: (error) => {
        destination.destroy(error as Error);
      },
    },
  );
}

/** The page as the server entry sends it. */
const collected = (cells: number) => new Promise<Buffer>((resolve) => render(cells, pageCollector(resolve)));

/** The page as React sends it. */
async function asReactSendsIt(cells: number) {
  const destination = new PassThrough();
  render(cells, destination);
  return buffer(destination);
}

describe("pages rendered by React 18's stream", () => {
  it("keep every character whole where a multi-byte character meets the renderer's buffer end", async () => {
    let broken = 0;
    for (let cells = 100; cells < 400; cells++) {
      // Some of these pages hold NUL bytes as React sends them (when none do, the workaround can go).
      if ((await asReactSendsIt(cells)).includes(0)) broken++;
      const page = await collected(cells);
      expect(page.includes(0)).toBe(false);
      expect(page.toString("utf8")).toContain(`>${TRICKY}</textarea>`);
    }
    expect(broken).toBeGreaterThan(0);
  });

  it("leaves pages without the fault as React rendered them", async () => {
    const page = await collected(10);
    expect(page.equals(await asReactSendsIt(10))).toBe(true);
  });
});
