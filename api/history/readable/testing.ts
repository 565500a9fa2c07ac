import { OUTCOME_LABELS, type ChangeLine } from "@contract";
import { asList, asRecord, listLines, shown, text, type Field, type ListSpec } from "./lines";
import type { PlaceName } from "./places";

/** A test question as recorded: what GET …/test_questions answers, without its save times. */
interface RecordedQuestion {
  id?: unknown;
  trigger_point?: unknown;
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
 * A test question added, changed, moved or removed (the state is the question, with its trigger
 * point), or an import (the state is its trigger point and the questions it added); named by its
 * text, under the agent it is asked of.
 */
export function testQuestionLines(before: unknown, after: unknown, placeName: PlaceName): ChangeLine[] {
  const spec: ListSpec<RecordedQuestion> = {
    key: (q) => text(q.id),
    name: (q) => shown(text(q.question)),
    fields: [
      ...QUESTION_FIELDS,
      // Said by the title when a question is added or removed; a move reads "Agent 'Default' → 'Admissions'".
      { label: "Agent", get: (q) => q.trigger_point, show: (point) => `'${placeName(text(point))}'`, inName: true },
    ],
  };
  const was = asRecord(before);
  const now = asRecord(after);
  const imported = now && Array.isArray(now.questions) ? now : undefined;
  const triggerPoint = text((imported ?? now ?? was)?.trigger_point);
  const title = `Test Questions of ${placeName(triggerPoint)}`;
  if (imported) return listLines(title, spec, [], asList<RecordedQuestion>(imported.questions));
  return listLines(title, spec, was ? [was] : [], now ? [now] : []);
}
