import { getRandomValues } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";

/** A real 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);
/**
 * An image written to a file of its own, for a journey to choose: the browser reads a file on disk
 * itself, where bytes handed to Playwright cross its pipe as text (12 MB took seconds).
 */
export function pngOnDisk(bytes: Uint8Array = PNG_BYTES, name = "logo.png") {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "console-image-")), name);
  writeFileSync(file, bytes);
  return file;
}

export const SVG_TEXT = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#2f54eb"/></svg>`;

export function multipart(files: { field: string; name: string; bytes: Uint8Array | string; type?: string }[]) {
  const form = new FormData();
  for (const file of files)
    form.append(
      file.field,
      new File([file.bytes as BlobPart], file.name, { type: file.type ?? "application/octet-stream" }),
    );
  return form;
}

/**
 * A real PNG of at least `minBytes` (and not much more): RGB pixels of random noise, which deflate
 * cannot shrink, so the file is as large as a photograph of its size would be.
 */
export function pngOfAtLeast(minBytes: number): Uint8Array<ArrayBuffer> {
  const width = 512;
  const rowBytes = 1 + width * 3;
  const height = Math.ceil(minBytes / rowBytes);
  const raw = new Uint8Array(rowBytes * height);
  // Each row is filter type 0 (its first byte) followed by random pixels.
  for (let row = 0; row < height; row++) randomFill(raw.subarray(row * rowBytes + 1, (row + 1) * rowBytes));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a sample, truecolour, deflate, no filter method, no interlace
  const file = Buffer.concat([
    Buffer.from(PNG_BYTES.subarray(0, 8)),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw, { level: 1 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
  const bytes = new Uint8Array(file.length);
  bytes.set(file);
  return bytes;
}

function randomFill(bytes: Uint8Array) {
  for (let offset = 0; offset < bytes.length; offset += 65_536)
    getRandomValues(bytes.subarray(offset, Math.min(offset + 65_536, bytes.length)));
}

function pngChunk(type: string, data: Buffer) {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
