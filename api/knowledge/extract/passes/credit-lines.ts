import type { Block } from "../html-blocks";
import { wordCountOf } from "../../words/lexemes";

/**
 * A line this short that bears the copyright sign is a picture's credit or a copyright notice, set
 * as a paragraph under a picture where it is no <figcaption> ("Lee Elder … | © Augusta
 * National/Getty Images", "Bild: Logo des Awards | © Springer"). Article text seldom carries the
 * sign, and a paragraph about it is longer. Chosen on trafilatura's evaluation pages (decision 022).
 */
const CREDIT_LINE_WORDS = 25;

const isCreditLine = (block: Block) =>
  block.kind === "text" && block.text.includes("©") && wordCountOf(block.text) <= CREDIT_LINE_WORDS;

/** The blocks without credit and copyright lines. */
export const withoutCreditLines = (blocks: Block[]) => blocks.filter((block) => !isCreditLine(block));
