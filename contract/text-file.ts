/**
 * Reading an uploaded text file (a CSV import) in the encodings spreadsheets save, or saying why
 * not. The bytes decide first, then what the upload declares:
 *
 * 1. a byte order mark: UTF-8, UTF-16 LE or UTF-16 BE (Excel's "Unicode Text" and "CSV UTF-8");
 * 2. the charset of the upload's Content-Type (`text/csv; charset=iso-8859-1`), as a script
 *    sending the file may declare it: what the sender says beats a guess, as in the Encoding
 *    Standard's order for documents;
 * 3. UTF-8 when the bytes are valid UTF-8;
 * 4. anything else is refused with a message that says the file is not UTF-8 and how to save it
 *    so (docs/decisions/033-uploaded-text-encodings.md says why it is not read as Windows-1252).
 *
 * Decoding is a TextDecoder with `fatal: true`: bytes that are not the encoding refuse the file
 * instead of turning into U+FFFD in stored text. It is @exodus/bytes' TextDecoder, which follows
 * the Encoding Standard as the platform's does on Node 22: Node 20's reads windows-1252's
 * 0x80–0x9F as Latin-1 control characters ("caf\u00e9 \u0096" for "café –"), as the page
 * decoder found before (api/knowledge/extract/decode-html.ts).
 */
import { TextDecoder as EncodingStandardDecoder } from "@exodus/bytes/encoding.js";

export type DecodedTextFile =
  /** `encoding`: the Encoding Standard's name of what the bytes were read as ("utf-8", "utf-16le", …). */
  { ok: true; text: string; encoding: string } | { ok: false; message: string };

/** How to get a file this console reads, ending every refusal. */
const SAVE_AS_UTF8 = "Save it as “CSV UTF-8” (in Excel: Save As → CSV UTF-8) and import it again.";

const refused = (problem: string): DecodedTextFile => ({ ok: false, message: `${problem} ${SAVE_AS_UTF8}` });

const BYTE_ORDER_MARKS = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8", name: "UTF-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le", name: "UTF-16 LE" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be", name: "UTF-16 BE" },
] as const;

/** The charset parameter of a Content-Type header ("text/html; charset=Shift_JIS" → "Shift_JIS"), or null. */
export function charsetOf(contentType: string | null | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? "");
  const label = (match?.[1] ?? match?.[2] ?? "").trim();
  return label || null;
}

function byteOrderMarkOf(bytes: Uint8Array) {
  return BYTE_ORDER_MARKS.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte)) ?? null;
}

/** A strict decoder for an encoding label, or null when the Encoding Standard knows no such label. */
function strictDecoder(label: string): InstanceType<typeof EncodingStandardDecoder> | null {
  try {
    return new EncodingStandardDecoder(label, { fatal: true });
  } catch {
    return null;
  }
}

/** The bytes as the decoder's encoding, or null where they are not (it drops a byte order mark of its own). */
function decodeOrNull(decoder: InstanceType<typeof EncodingStandardDecoder>, bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The line (from 1) holding the first byte that is not UTF-8, for the refusal: the lenient
 * decoder marks it with U+FFFD (a file that spelled U+FFFD itself earlier is pointed at there).
 */
function firstBadUtf8Line(bytes: Uint8Array): number {
  const lenient = new EncodingStandardDecoder("utf-8").decode(bytes);
  const at = lenient.indexOf("\uFFFD");
  return lenient.slice(0, Math.max(at, 0)).split(/\r\n|\r|\n/).length;
}

/**
 * Text with NUL characters is not a CSV: it is what UTF-16 without a byte order mark looks like
 * read as a single-byte encoding or UTF-8 (every other byte of Latin text is 0), or a binary file.
 */
const nulRefusal = (encoding: string) =>
  refused(`This file holds NUL characters, so it is not ${encoding} text (UTF-16 without a byte order mark reads so).`);

function decoded(text: string | null, encoding: string, otherwise: () => DecodedTextFile): DecodedTextFile {
  if (text === null) return otherwise();
  return text.includes("\u0000") ? nulRefusal(encoding) : { ok: true, text, encoding };
}

/** An uploaded text file's bytes as text, read as the steps at the top of this module say. */
export function decodeTextFile(bytes: Uint8Array, contentType: string | null | undefined): DecodedTextFile {
  const mark = byteOrderMarkOf(bytes);
  if (mark) {
    return decoded(decodeOrNull(strictDecoder(mark.encoding)!, bytes), mark.encoding, () =>
      refused(`This file starts as ${mark.name} but is not ${mark.name} throughout.`),
    );
  }
  const declared = charsetOf(contentType);
  if (declared) {
    const decoder = strictDecoder(declared);
    if (!decoder) return refused(`This file declares the character set “${declared}”, which the console cannot read.`);
    return decoded(decodeOrNull(decoder, bytes), decoder.encoding, () =>
      refused(`This file declares the character set “${declared}” but is not ${decoder.encoding} text.`),
    );
  }
  // Before the UTF-8 check, whose line number would count UTF-16's "\r\0\n\0" as two line ends.
  if (bytes.includes(0)) return nulRefusal("UTF-8");
  return decoded(decodeOrNull(strictDecoder("utf-8")!, bytes), "utf-8", () =>
    refused(
      `This file is not UTF-8 (line ${firstBadUtf8Line(bytes)} is not): spreadsheets save plain “CSV” in a regional encoding ` +
        "such as Windows-1252 (Latin-1).",
    ),
  );
}
