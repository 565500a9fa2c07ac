import { TextDecoder as EncodingStandardDecoder } from "@exodus/bytes/encoding.js";
import htmlEncodingSniffer from "html-encoding-sniffer";

const strictUtf8 = new EncodingStandardDecoder("utf-8", { fatal: true });

/**
 * A fetched page's markup, decoded as the HTML Standard's encoding sniffing says (the library
 * html-encoding-sniffer, as jsdom uses it): a byte order mark first, then the charset of the
 * Content-Type header, then a `<meta charset>` or `http-equiv` in the first 1,024 bytes. A page
 * that declares nothing is UTF-8 when its bytes are valid UTF-8 (a check the standard allows before
 * its default) and windows-1252 otherwise, the standard's default for Latin-script pages.
 * Decoding is @exodus/bytes' TextDecoder, which follows the Encoding Standard: Node 20's own reads
 * windows-1252's 0x80–0x9F as Latin-1 control characters ("caf\u00e9 \u0096" for "café –").
 */
export function decodeHtml(bytes: Uint8Array, headerCharset: string | null): string {
  const declared = htmlEncodingSniffer(bytes, {
    transportLayerEncodingLabel: headerCharset ?? undefined,
    defaultEncoding: "",
  });
  if (declared) return decoderFor(declared).decode(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decoderFor("windows-1252").decode(bytes);
  }
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
