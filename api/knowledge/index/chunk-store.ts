import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { chunks } from "../../db/schema";
import type { Chunk } from "./chunk";
import { forgetCorpusStats } from "./corpus-stats";

/** Where chunks come from: a page of a website or an uploaded file. */
export type ChunkSource = { appId: number; urlId: number } | { appId: number; fileId: number };

/** Replaces a page's or file's chunks with new ones; run it inside the transaction that marks it indexed. */
export async function replaceChunks(tx: Pick<Database, "delete" | "insert">, source: ChunkSource, pieces: Chunk[]) {
  const owner = "urlId" in source ? { urlId: source.urlId } : { fileId: source.fileId };
  await tx.delete(chunks).where("urlId" in source ? eq(chunks.urlId, source.urlId) : eq(chunks.fileId, source.fileId));
  // Relevance weights are measured again on the next question (in this process; others within a minute).
  forgetCorpusStats(source.appId);
  if (!pieces.length) return;
  await tx.insert(chunks).values(
    pieces.map((c) => ({
      appId: source.appId,
      ...owner,
      position: c.position,
      headingPath: c.headingPath,
      text: c.text,
      tsv: c.tsv,
    })),
  );
}
