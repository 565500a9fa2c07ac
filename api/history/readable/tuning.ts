import { FINETUNING_TABLES, PAGE_TYPE_LABELS, type ChangeLine } from "@contract";
import { asList, listLines, text, type Field, type ListSpec } from "./lines";
import type { PlaceName } from "./places";

interface RecordedRule {
  trigger_point?: unknown;
  finetuning_type?: unknown;
  pattern?: unknown;
  penalty?: unknown;
  metadata?: unknown;
}

const metadataJson = (rule: RecordedRule) => JSON.stringify(rule.metadata ?? {});

/**
 * A rule of one of the AI Finetuning screen's three tables, told apart as the save tells them
 * apart: a weightage rule is its site, type and pattern (its penalty is what changes); a clean-up
 * rule is its site and its Metadata JSON.
 */
function ruleSpec(table: (typeof FINETUNING_TABLES)[number], placeName: PlaceName): ListSpec<RecordedRule> {
  const site: Field<RecordedRule> = { label: "Site", get: (rule) => placeName(text(rule.trigger_point)), show: String };
  if (table.key === "html_tags") {
    return {
      key: (rule) => `${text(rule.trigger_point)}\u0000${metadataJson(rule)}`,
      name: (rule) => `'${metadataJson(rule)}'`,
      context: [site],
      fields: [],
    };
  }
  const typeLabels: Record<string, string> = PAGE_TYPE_LABELS;
  const typeLabel = (rule: RecordedRule) => typeLabels[text(rule.finetuning_type)] ?? text(rule.finetuning_type);
  const type: Field<RecordedRule> = { label: "Type", get: typeLabel, show: String };
  return {
    key: (rule) => [rule.trigger_point, rule.finetuning_type, rule.pattern].map(text).join("\u0000"),
    name: (rule) => `'${text(rule.pattern)}'`,
    context: table.key === "page_type" ? [site, type] : [site],
    fields: [{ label: "Penalty", get: (rule) => rule.penalty }],
  };
}

/** The client's finetuning table, one subject per screen table: "AI Finetuning, URL Pattern Based Weightage: added '/news/' …". */
export function finetuningLines(before: unknown, after: unknown, placeName: PlaceName): ChangeLine[] {
  return FINETUNING_TABLES.flatMap((table) => {
    const types: readonly unknown[] = table.types;
    const inTable = (state: unknown) =>
      asList<RecordedRule>(state).filter((rule) => types.includes(rule.finetuning_type));
    return listLines(`AI Finetuning, ${table.title}`, ruleSpec(table, placeName), inTable(before), inTable(after));
  });
}

interface RecordedPrompt {
  internal_name?: unknown;
  prompt_input_raw?: unknown;
}

/** Input prompts of one trigger point, each by its Prompt Key. */
export function inputPromptLines(
  triggerPoint: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  const spec: ListSpec<RecordedPrompt> = {
    key: (prompt) => text(prompt.internal_name),
    name: (prompt) => `'${text(prompt.internal_name)}'`,
    fields: [{ label: "Prompt", get: (prompt) => text(prompt.prompt_input_raw) }],
  };
  return listLines(`Input Prompts of ${placeName(triggerPoint)}`, spec, asList(before), asList(after));
}
