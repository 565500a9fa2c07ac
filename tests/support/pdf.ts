/**
 * Real PDFs of several shapes, written object by object with a correct cross-reference table, so
 * tests need no binary fixtures: text pages, bookmarks, a scanned page (an image and no text
 * layer), a password-protected document, and text in the CJK fonts readers supply themselves.
 */

/**
 * One of the CJK fonts every PDF reader is expected to supply, as Acrobat's "Asian font packs" do:
 * the document names it without embedding it, and writes its text as UTF-16 codes read through one
 * of Adobe's predefined CMaps (no ToUnicode map of its own).
 */
export interface ReaderCjkFont {
  baseFont: string;
  cmap: string;
  ordering: string;
  supplement: number;
}
export const SIMPLIFIED_CHINESE_SONG: ReaderCjkFont = {
  baseFont: "STSong-Light",
  cmap: "UniGB-UCS2-H",
  ordering: "GB1",
  supplement: 2,
};
export const JAPANESE_MINCHO: ReaderCjkFont = {
  baseFont: "KozMinPro-Regular-Acro",
  cmap: "UniJIS-UCS2-H",
  ordering: "Japan1",
  supplement: 2,
};

export const KOREAN_MYEONGJO: ReaderCjkFont = {
  baseFont: "HYSMyeongJo-Medium",
  cmap: "UniKS-UCS2-H",
  ordering: "Korea1",
  supplement: 1,
};

export interface PdfShape {
  title?: string;
  /** Bookmarks: title and the 1-based page they open. */
  outline?: { title: string; page: number }[];
  /** Pages carry an image and no text at all, like a scan without OCR. */
  imagesOnly?: boolean;
  /** Protected by a user password (standard security handler): no reader opens it without one. */
  encrypted?: boolean;
  /** The text is set in this CJK font, not embedded, instead of Helvetica. */
  cjkFont?: ReaderCjkFont;
}

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
/** Text as UTF-16 (big-endian) in a hex string, with a byte order mark where the PDF wants one. */
const utf16Hex = (s: string, mark = "") => `<${mark}${Buffer.from(s, "utf16le").swap16().toString("hex")}>`;
/** A text string of the document (title, bookmarks): PDFDocEncoding's Latin-1 part, or marked UTF-16. */
const textString = (s: string) =>
  [...s].every((c) => c.charCodeAt(0) <= 0xff) ? `(${escape(s)})` : utf16Hex(s, "feff");

function assemble(bodies: Record<number, string>, count: number, trailerExtra = "") {
  let out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets: number[] = [];
  for (let id = 1; id < count; id++) {
    offsets[id] = Buffer.byteLength(out, "latin1");
    out += `${id} 0 obj\n${bodies[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${count}\n0000000000 65535 f \n${offsets
    .slice(1)
    .map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)
    .join("")}`;
  out += `trailer\n<< /Size ${count} /Root 1 0 R /Info 4 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A valid PDF whose pages carry the given lines of text (Helvetica, a real text layer). */
export function makePdf(pages: string[][], titleOrShape: string | PdfShape = "Fixture PDF"): Buffer {
  const shape: PdfShape = typeof titleOrShape === "string" ? { title: titleOrShape } : titleOrShape;
  const bodies: Record<number, string> = {};
  const pageIds: number[] = [];
  // 1: catalog, 2: pages, 3: font, 4: info, 5: image; pages, contents and bookmarks follow.
  let next = 6;
  for (const lines of pages) {
    const pageId = next++;
    const contentId = next++;
    pageIds.push(pageId);
    const stream = shape.imagesOnly
      ? "q 400 0 0 300 100 400 cm /Im1 Do Q"
      : `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `${shape.cjkFont ? utf16Hex(l) : `(${escape(l)})`} Tj T*`).join(" ")} ET`;
    bodies[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 5 0 R >> >> /Contents ${contentId} 0 R >>`;
    bodies[contentId] = `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
  }
  let catalogExtra = "";
  if (shape.outline?.length) {
    const outlineId = next++;
    const itemIds = shape.outline.map(() => next++);
    shape.outline.forEach((item, i) => {
      const links = [
        i > 0 ? `/Prev ${itemIds[i - 1]} 0 R` : "",
        i < itemIds.length - 1 ? `/Next ${itemIds[i + 1]} 0 R` : "",
      ].join(" ");
      bodies[itemIds[i]] =
        `<< /Title ${textString(item.title)} /Parent ${outlineId} 0 R ${links} /Dest [${pageIds[item.page - 1]} 0 R /Fit] >>`;
    });
    bodies[outlineId] =
      `<< /Type /Outlines /First ${itemIds[0]} 0 R /Last ${itemIds[itemIds.length - 1]} 0 R /Count ${itemIds.length} >>`;
    catalogExtra = ` /Outlines ${outlineId} 0 R /PageMode /UseOutlines`;
  }
  bodies[1] = `<< /Type /Catalog /Pages 2 0 R${catalogExtra} >>`;
  bodies[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;
  bodies[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  if (shape.cjkFont) {
    const { baseFont, cmap, ordering, supplement } = shape.cjkFont;
    const [descendantId, descriptorId] = [next++, next++];
    bodies[3] = `<< /Type /Font /Subtype /Type0 /BaseFont /${baseFont} /Encoding /${cmap} /DescendantFonts [${descendantId} 0 R] >>`;
    bodies[descendantId] =
      `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${baseFont} /CIDSystemInfo << /Registry (Adobe) /Ordering (${ordering}) /Supplement ${supplement} >> /FontDescriptor ${descriptorId} 0 R /DW 1000 >>`;
    bodies[descriptorId] =
      `<< /Type /FontDescriptor /FontName /${baseFont} /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>`;
  }
  bodies[4] = `<< /Title ${textString(shape.title ?? "Fixture PDF")} >>`;
  const pixels = "\x80".repeat(64);
  bodies[5] = `<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`;
  if (!shape.encrypted) return assemble(bodies, next);
  // A standard security handler whose check values match no empty password: readers must ask for one.
  const encryptId = next++;
  const filler = (seed: number) =>
    Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, "0")).join("");
  bodies[encryptId] = `<< /Filter /Standard /V 1 /R 2 /O <${filler(11)}> /U <${filler(91)}> /P -44 >>`;
  return assemble(
    bodies,
    next,
    ` /Encrypt ${encryptId} 0 R /ID [<${filler(5).slice(0, 32)}> <${filler(5).slice(0, 32)}>]`,
  );
}

/** The first part of a valid PDF, cut off: what a broken transfer leaves. */
export const truncatedPdf = () => makePdf([["This document was cut off half way."]]).subarray(0, 120);

/** A ZIP archive's opening bytes under a .pdf name. */
export const notAPdf = () =>
  Buffer.concat([Buffer.from("PK\x03\x04\x14\x00\x00\x00\x08\x00", "latin1"), Buffer.alloc(200, 7)]);
