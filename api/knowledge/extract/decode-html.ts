import { labelToName, TextDecoder as EncodingStandardDecoder } from "@exodus/bytes/encoding.js";
import chardet from "chardet";
import htmlEncodingSniffer from "html-encoding-sniffer";

declare module "html-encoding-sniffer" {
  interface Options {
    /** How far the `<meta>` prescan reads (7.0.0; its types on DefinitelyTyped predate it). */
    maxPrescanBytes?: number;
  }
}

const strictUtf8 = new EncodingStandardDecoder("utf-8", { fatal: true });

/**
 * How far into a page a `<meta charset>` is looked for: its whole `<head>`, up to this size. The
 * standard's prescan stops at 1,024 bytes, but browsers honour a declaration later in the head
 * (Chromium keeps scanning while it is in the head; Firefox reloads the page with it), and pages
 * put one there behind preloads, inline styles or an archive's injected scripts.
 */
const MAX_HEAD_BYTES = 128 * 1024;
/** The prescan's own minimum, as the standard has it. */
const STANDARD_PRESCAN_BYTES = 1024;
/** How much of an undeclared page the detector reads: enough for any language's statistics, bounded in time. */
const DETECTOR_SAMPLE_BYTES = 32 * 1024;

/**
 * A fetched page's markup, decoded as browsers decode it. First what the page or its server
 * declares, by the HTML Standard's encoding sniffing (html-encoding-sniffer, as jsdom uses it): a
 * byte order mark, then the charset of the Content-Type header, then a `<meta charset>` or
 * `http-equiv` anywhere in the `<head>`. A page that declares nothing is UTF-8 when its bytes are
 * valid UTF-8; otherwise its encoding is guessed from its bytes (chardet), as browsers guess one
 * (Chromium's and Firefox's detectors), so an undeclared Shift_JIS or GBK page is not read as
 * windows-1252, which stays the answer when the detector names nothing usable.
 * Decoding is @exodus/bytes' TextDecoder, which follows the Encoding Standard: Node 20's own reads
 * windows-1252's 0x80–0x9F as Latin-1 control characters ("caf\u00e9 \u0096" for "café –").
 */
export function decodeHtml(bytes: Uint8Array, headerCharset: string | null): string {
  const declared = htmlEncodingSniffer(bytes, {
    transportLayerEncodingLabel: headerCharset ?? undefined,
    defaultEncoding: "",
    maxPrescanBytes: headLength(bytes),
  });
  if (declared) return decoderFor(declared).decode(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decoderFor(detectedEncoding(bytes)).decode(bytes);
  }
}

/** The bytes before the page's `<body>` (at least the standard's 1,024), within MAX_HEAD_BYTES. */
function headLength(bytes: Uint8Array) {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MAX_HEAD_BYTES)).toString("latin1");
  const body = head.search(/<body[\s/>]/i);
  return body < 0 ? head.length : Math.max(STANDARD_PRESCAN_BYTES, body);
}

/**
 * The encoding the detector finds in a page that is not UTF-8 and declares nothing, as an
 * Encoding Standard name. It reads from the first byte outside ASCII, where the text that tells
 * encodings apart begins (markup and scripts before it are ASCII in every encoding it knows).
 */
function detectedEncoding(bytes: Uint8Array) {
  const start = bytes.findIndex((byte) => byte >= 0x80);
  const guess = chardet.detect(bytes.subarray(Math.max(0, start), Math.max(0, start) + DETECTOR_SAMPLE_BYTES));
  const encoding = guess ? labelToName(guess) : null;
  // UTF-32 is not an encoding of the web, and "replacement" (ISO-2022-KR/CN) decodes to nothing.
  return encoding && encoding !== "replacement" ? encoding : "windows-1252";
}

const decoders = new Map<string, InstanceType<typeof EncodingStandardDecoder>>();

/** One decoder per encoding (a decoder without `stream` keeps no state between pages). */
function decoderFor(encoding: string) {
  let decoder = decoders.get(encoding);
  if (!decoder) {
    // Every encoding of the Encoding Standard is known; "replacement" and anything refused are
    // read as UTF-8, with replacement characters where bytes are wrong.
    try {
      decoder = new EncodingStandardDecoder(encoding);
    } catch {
      decoder = new EncodingStandardDecoder("utf-8");
    }
    decoders.set(encoding, decoder);
  }
  return decoder;
}
