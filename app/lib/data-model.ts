import {
  FIELD_NAME_INVALID,
  FIELD_NAME_PATTERN,
  tidyFieldName,
  FIELD_TYPES,
  PROFILE_GROUPS,
  UNGROUPED,
} from "@contract/values/personalisation";
import type { ConfigDetail, ModelType } from "@contract";
import { changedFields, isNewRow } from "~/components/editable-table/rows";
import { requiredErrors, type FieldErrors } from "~/lib/required-check";

/*
 * Pure rules of the data model screens (spec sections 2 and 5): the rows of the field table as
 * the form carries them, which rows a save sends, and the JSON view grouped by group.
 */

/** The screens that edit a data model: which model, and what the page calls itself. */
export const DATA_MODEL_SCREENS = {
  "user-profile": { modelType: "user_profile", title: "Manage User Profile Data Model", noun: "user profile" },
  "student-profile": { modelType: "user_profile", title: "Manage Student Profile Data Model", noun: "student profile" },
  "program-profile": {
    modelType: "program_profile",
    title: "Manage Program Profile Data Model",
    noun: "program profile",
  },
  "program-data-model": { modelType: "program_profile", title: "Program Data Model", noun: "program profile" },
} as const satisfies Record<string, { modelType: ModelType; title: string; noun: string }>;
export type DataModelScreen = keyof typeof DATA_MODEL_SCREENS;

/** A row of the field table: every value a string, plus what the loader gave. */
export interface FieldFormRow {
  /** "" for a field not saved yet. */
  id: string;
  group: string;
  name: string;
  definition: string;
  field_type: string;
  loaded: { group: string; name: string; definition: string; field_type: string } | null;
}

export const FIELD_COLUMNS = ["Group", "Field Name", "Definition", "Type"] as const;
/** Spec section 5: name, field_type and group required. */
export const FIELD_REQUIRED_FIELDS = ["group", "name", "field_type"] as const;
/** A field's editable cells, as the form posts them and as loaded. */
export const FIELD_CELLS = ["group", "name", "definition", "field_type"] as const;

export const GROUP_OPTIONS = PROFILE_GROUPS.map((group) => ({ value: group, label: group }));
export const TYPE_OPTIONS = FIELD_TYPES.map((type) => ({ value: type, label: type }));

export const blankFieldRow = (): FieldFormRow => ({
  id: "",
  group: "",
  name: "",
  definition: "",
  field_type: "",
  loaded: null,
});

export function fieldFormRow(detail: ConfigDetail): FieldFormRow {
  const values = {
    group: detail.group,
    name: detail.name,
    definition: detail.definition,
    field_type: detail.field_type,
  };
  return { id: String(detail.id), ...values, loaded: values };
}

export const changedFieldValues = (row: FieldFormRow) => changedFields(row, FIELD_CELLS);

/** A field the save sends (and the required check covers): new, or changed since it was loaded. */
export const fieldRowNeedsSave = (row: FieldFormRow) => isNewRow(row) || changedFieldValues(row).size > 0;

/**
 * A field's problems before a save: its required cells (spec section 5), and a name the API would
 * refuse (as it trims it), so that one save attempt names every problem of the row at once.
 */
export function fieldRowErrors(row: FieldFormRow): FieldErrors | null {
  const errors = requiredErrors(row, FIELD_REQUIRED_FIELDS);
  const name = tidyFieldName(row.name.trim());
  if (name && !FIELD_NAME_PATTERN.test(name)) (errors.name ??= []).push(FIELD_NAME_INVALID);
  return Object.keys(errors).length ? errors : null;
}

export interface ModelFieldView {
  type: string;
  definition?: string;
}

/**
 * The JSON view: fields by group in the spec's group order, 'Ungrouped' last for fields without
 * one; each field shows its type and, when there is one, its definition.
 */
export function groupedModel(details: readonly Pick<ConfigDetail, "name" | "group" | "field_type" | "definition">[]) {
  const byGroup = new Map<string, Record<string, ModelFieldView>>();
  for (const detail of details) {
    const group = detail.group.trim() || UNGROUPED;
    const fields = byGroup.get(group) ?? {};
    fields[detail.name] = detail.definition
      ? { type: detail.field_type, definition: detail.definition }
      : { type: detail.field_type };
    byGroup.set(group, fields);
  }
  const order = (group: string) => {
    const index = (PROFILE_GROUPS as readonly string[]).indexOf(group);
    return group === UNGROUPED ? Number.MAX_SAFE_INTEGER : index === -1 ? PROFILE_GROUPS.length : index;
  };
  const groups = [...byGroup.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return Object.fromEntries(groups.map((group) => [group, byGroup.get(group)!]));
}

/** A program value as the programs table shows it. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.map(displayValue).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
