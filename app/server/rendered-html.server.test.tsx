import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withoutUnusedTail } from "./rendered-html.server";

const TRICKY = "Café naïve — “quoted” … 😀👩🏽‍💻 مرحبا بكم 你好，世界";

/** A page of `cells` short elements, then a field holding TRICKY, rendered as the server entry collects it. */
function render(cells: number, collect: (piece: Buffer) => Buffer) {
  return new Promise<Buffer>((resolve, reject) => {
    const pieces: Buffer[] = [];
    const collector = new Writable({
      write(piece: Buffer, _encoding, done) {
        pieces.push(collect(piece));
        done();
      },
      final(done) {
        resolve(Buffer.concat(pieces));
        done();
      },
    });
    const { pipe } = renderToPipeableStream(
      <main>
        {Array.from({ length: cells }, (_, i) => <span key={i}>{i % 10}</span>)}
        <textarea defaultValue={TRICKY} />
      </main>,
      { onAllReady: () => pipe(collector), onError: reject },
    );
  });
}

describe("pages rendered by React 18's stream", () => {
  it("keep every character whole where a multi-byte character meets the renderer's buffer end", async () => {
    let broken = 0;
    for (let cells = 100; cells < 400; cells++) {
      // As React sends them: some of these pages hold NUL bytes (when React no longer does, this
      // workaround can go).
      if ((await render(cells, (piece) => piece)).includes(0)) broken++;
      const page = await render(cells, withoutUnusedTail);
      expect(page.includes(0)).toBe(false);
      expect(page.toString("utf8")).toContain(`>${TRICKY}</textarea>`);
    }
    expect(broken).toBeGreaterThan(0);
  });

  it("leaves every other piece as it is", () => {
    const full = Buffer.alloc(2048, "a");
    expect(withoutUnusedTail(full)).toBe(full);
    const short = Buffer.from([0x61, 0, 0]);
    expect(withoutUnusedTail(short)).toBe(short);
  });
});
