import { ALL_APPEARANCE_FIELDS, type AppearanceField, type ChangeLine, type ModelType } from "@contract";
import { appearanceTargetOf } from "../kinds";
import { asList, asRecord, fieldLines, listLines, text, words, type Field, type ListSpec } from "./lines";
import type { PlaceName } from "./places";

/** How the Appearance screen shows a value: an option by its label, on or off, a number with its unit, an image as uploaded. */
function appearanceShow(field: AppearanceField) {
  switch (field.type) {
    case "select":
    case "radio":
      return (value: unknown) => `'${field.options.find((option) => option.value === value)?.label ?? text(value)}'`;
    case "boolean":
      return (value: unknown) => (value ? "On" : "Off");
    case "number":
      return (value: unknown) => `${text(value)}${field.unit ? ` ${field.unit}` : ""}`;
    case "image":
      return (value: unknown) => (value ? "an uploaded image" : "(none)");
    default:
      return undefined;
  }
}

const APPEARANCE_FIELDS: Field<Record<string, unknown>>[] = ALL_APPEARANCE_FIELDS.map((field) => ({
  label: field.label,
  get: (values) => values[field.internalName],
  show: appearanceShow(field),
}));
const KNOWN = new Set(ALL_APPEARANCE_FIELDS.map((field) => field.internalName));

/** One environment's appearance of one trigger point: "Appearance of Default (stage): Primary Colour '#1f4b99' → '#0a7d4f'". */
export function appearanceLines(target: string, before: unknown, after: unknown, placeName: PlaceName): ChangeLine[] {
  const { environment, triggerPoint } = appearanceTargetOf(target);
  const was = asRecord(before) ?? {};
  const now = asRecord(after) ?? {};
  // Settings stored before the screen stopped offering them still read in words.
  const others = [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((name) => !KNOWN.has(name))
    .map((name): Field<Record<string, unknown>> => ({ label: words(name), get: (values) => values[name] }));
  const subject = `Appearance of ${placeName(triggerPoint)} (${environment === "prod" ? "production" : "stage"})`;
  return fieldLines(subject, [...APPEARANCE_FIELDS, ...others], was, now);
}

/** The data models as their screens are titled. */
export const DATA_MODEL_TITLES: Record<ModelType, string> = {
  user_profile: "User Profile Data Model",
  program_profile: "Program Profile Data Model",
};

interface RecordedField {
  name?: unknown;
  definition?: unknown;
  field_type?: unknown;
  group?: unknown;
}

/** A data model's fields, each by its Field Name, with the drawer's columns Group, Definition and Type. */
export function dataModelLines(model: string, before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<RecordedField> = {
    key: (field) => text(field.name),
    name: (field) => `'${text(field.name)}'`,
    fields: [
      { label: "Group", get: (field) => text(field.group) },
      { label: "Type", get: (field) => text(field.field_type) },
      { label: "Definition", get: (field) => text(field.definition) },
    ],
  };
  return listLines(DATA_MODEL_TITLES[model as ModelType] ?? words(model), spec, asList(before), asList(after));
}
