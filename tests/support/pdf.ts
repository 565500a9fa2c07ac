/** Builds a small, valid PDF whose pages carry the given lines of text (Helvetica, a real text layer). */
export function makePdf(pages: string[][], title = "Fixture PDF"): Buffer {
  const objects: string[] = [];
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const pageIds: number[] = [];
  // 1: catalog, 2: pages, 3: font, 4: info; pages and contents follow.
  let next = 5;
  const bodies: Record<number, string> = {};
  for (const lines of pages) {
    const pageId = next++;
    const contentId = next++;
    pageIds.push(pageId);
    const stream = `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `(${escape(l)}) Tj T*`).join(" ")} ET`;
    bodies[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    bodies[contentId] = `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
  }
  bodies[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  bodies[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;
  bodies[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  bodies[4] = `<< /Title (${escape(title)}) >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < next; id++) {
    offsets[id] = Buffer.byteLength(out);
    objects.push(`${id} 0 obj\n${bodies[id]}\nendobj\n`);
    out += objects[objects.length - 1];
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${next}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${next} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
