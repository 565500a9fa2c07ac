import { MAX_CHANGE_LINES, type ChangeKind, type ChangeLine } from "@contract";
import { accessLines, agentLines, clientProfileLines, fileLines, integrationLines, websiteLines } from "./client";
import { controlsLines, probingLines } from "./controls";
import type { PlaceName } from "./places";
import { appearanceLines, dataModelLines } from "./settings";
import { testQuestionLines } from "./testing";
import { finetuningLines, inputPromptLines } from "./tuning";
import { urlRequestLines } from "./urls";

export { placeNamesOf, type PlaceName } from "./places";

/** What one recorded change did, line by line, as the screens name things (docs/decisions/031). */
function linesOf(
  kind: ChangeKind,
  target: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  switch (kind) {
    case "controls":
      return controlsLines(target, before, after, placeName);
    case "smart_probing":
      return probingLines(target, before, after, placeName);
    case "finetuning":
      return finetuningLines(before, after, placeName);
    case "input_prompts":
      return inputPromptLines(target, before, after, placeName);
    case "appearance":
      return appearanceLines(target, before, after, placeName);
    case "data_model":
      return dataModelLines(target, before, after);
    case "integration":
      return integrationLines(before, after);
    case "website":
      return websiteLines(before, after);
    case "agent":
      return agentLines(before, after);
    case "user_access":
      return accessLines(before, after);
    case "file":
      return fileLines(before, after);
    case "client":
      return clientProfileLines(before, after);
    case "test_questions":
      return testQuestionLines(before, after, placeName);
    case "urls":
      return urlRequestLines(before, after);
    // A kind this version does not know (a row written by a newer one) is listed with its summary alone.
    default:
      return [];
  }
}

/** The readable lines of a change, at most MAX_CHANGE_LINES: a data model imported whole is counted, not listed. */
export function readableChanges(
  kind: ChangeKind,
  target: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  const lines = linesOf(kind, target, before, after, placeName);
  if (lines.length <= MAX_CHANGE_LINES) return lines;
  const more = lines.length - (MAX_CHANGE_LINES - 1);
  return [...lines.slice(0, MAX_CHANGE_LINES - 1), { text: `… and ${more.toLocaleString("en")} more` }];
}
