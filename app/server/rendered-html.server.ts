import { Writable } from "node:stream";

/**
 * React 18's streaming renderer (`renderToPipeableStream`) encodes short strings into a 2,048-byte
 * buffer, and when the next character needs more bytes than the buffer has left, it sends the
 * whole buffer, its one to three unused bytes included. The page then holds NUL bytes inside the
 * text: browsers show them as U+FFFD ("م�رحبا"), and a form posted back would save them. React 19
 * sends only the bytes written (facebook/react#26228); until the console moves to it, the unused
 * tail of such a buffer is cut here. A page never carries a NUL byte of its own: every stored
 * string is free of control characters (api/http/input-guard.ts).
 */
const REACT_VIEW_BYTES = 2048;
/** A UTF-8 character takes at most four bytes, so at most three are left unused. */
const MAX_UNUSED_BYTES = 3;

/** A piece of a rendered page without the unused bytes React 18 may leave at the end of a full buffer. */
function withoutUnusedTail(piece: Buffer): Buffer {
  if (piece.byteLength !== REACT_VIEW_BYTES) return piece;
  let end = piece.byteLength;
  while (end > piece.byteLength - MAX_UNUSED_BYTES && piece[end - 1] === 0) end--;
  return end === piece.byteLength ? piece : piece.subarray(0, end);
}

/** Where React's rendered page is piped: its pieces gathered (each without an unused tail) and handed to `whole` as one. */
export function pageCollector(whole: (page: ReturnType<typeof Buffer.concat>) => void) {
  const pieces: Buffer[] = [];
  return new Writable({
    write(piece: Buffer, _encoding, done) {
      pieces.push(withoutUnusedTail(piece));
      done();
    },
    final(done) {
      whole(Buffer.concat(pieces));
      done();
    },
  });
}
