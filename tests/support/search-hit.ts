import type { SearchHit } from "../../api/knowledge/index/search";

/** A retrieval hit for tests of what reads hits: a passage of page 1 holding the whole question, unless told. */
export const searchHit = (fields: Partial<SearchHit> = {}): SearchHit => ({
  chunkId: 1,
  urlId: 1,
  fileId: null,
  url: "https://example.edu/1",
  fileName: null,
  title: "",
  position: 0,
  headingPath: [],
  text: "",
  indexedAt: null,
  baseScore: 1,
  bm25: 1,
  score: 1,
  relevance: 1,
  pageShare: 1,
  near: 1,
  held: [],
  penalties: [],
  ...fields,
});
