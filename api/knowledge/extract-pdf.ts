import { extractText, getDocumentProxy, getMeta } from "unpdf";
import type { Block, ExtractedPage } from "./extract-html";

/**
 * The text of a PDF, page by page: each page is a section ("Page N") so chunks say where they
 * came from. Encrypted, corrupt and text-less (scanned) PDFs fail with a message saying which.
 */
export async function extractPdf(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedPage> {
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    const message = (error as Error).message ?? "";
    if (/password/i.test(message)) throw new Error("The PDF is password-protected");
    throw new Error(`The PDF could not be read: ${message || "it is damaged"}`);
  }
  const { text } = await extractText(pdf, { mergePages: false });
  const pages = (text as string[]).map((page) => page.replace(/-\n(?=\p{Ll})/gu, "").trim());
  if (!pages.some((page) => page.length > 0)) throw new Error("The PDF has no text layer (scanned images only)");
  const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
  const title = String((meta.info as Record<string, unknown>).Title ?? "").trim() || fallbackTitle;
  const blocks: Block[] = [];
  pages.forEach((page, index) => {
    if (!page) return;
    blocks.push({ kind: "heading", level: 1, text: `Page ${index + 1}` });
    for (const paragraph of page.split(/\n\s*\n/)) {
      const clean = paragraph.replace(/\s+/g, " ").trim();
      if (clean) blocks.push({ kind: "text", text: clean });
    }
  });
  return { title, blocks, text: blocks.filter((b) => b.kind === "text").map((b) => b.text).join("\n\n") };
}
