import { OUTCOME_LABELS, type ChangeLine } from "@contract";
import { asList, listLines, shown, text, type Field, type ListSpec } from "./lines";
import type { PlaceName } from "./places";

/** A test question as recorded: what GET …/test_questions answers, without its save times. */
interface RecordedQuestion {
  id?: unknown;
  question?: unknown;
  expect_source?: unknown;
  expect_text?: unknown;
  expect_outcome?: unknown;
}

const outcomeLabels: Record<string, string> = OUTCOME_LABELS;

/** The Test Questions table's columns, as it labels them (its Updated column is a save time: not compared). */
const QUESTION_FIELDS: Field<RecordedQuestion>[] = [
  { label: "Question", get: (q) => q.question, inName: true },
  { label: "Expected source", get: (q) => q.expect_source },
  { label: "Expected text", get: (q) => q.expect_text },
  {
    label: "Expected outcome",
    get: (q) => q.expect_outcome,
    show: (outcome) => `'${outcomeLabels[text(outcome)] ?? text(outcome)}'`,
  },
];

/**
 * The test questions of one trigger point, each the same question while its id stays (an edited
 * question reads "changed", not one removed and one added), named by its text.
 */
export function testQuestionLines(
  triggerPoint: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  const spec: ListSpec<RecordedQuestion> = {
    key: (q) => text(q.id),
    name: (q) => shown(text(q.question)),
    fields: QUESTION_FIELDS,
  };
  return listLines(`Test Questions of ${placeName(triggerPoint)}`, spec, asList(before), asList(after));
}
