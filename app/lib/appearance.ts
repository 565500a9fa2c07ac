import { ALL_APPEARANCE_FIELDS, HEX_COLOR, type AppearanceValues } from "@contract/values/appearance";
import { windowForPanel } from "@contract/values/widget-layout";

/** The "Remove" box beside an image field. */
export const removeImageName = (internalName: string) => `${internalName}__remove`;

/** A colour's picker, and its text as the page showed it, posted beside its text box. */
export const pickedColourName = (internalName: string) => `${internalName}__picked`;
export const shownColourName = (internalName: string) => `${internalName}__shown`;

/**
 * A colour field's value. With JavaScript the picker writes into the text box. Without it the
 * picker cannot, so a picked colour counts when the text was left as the page showed it.
 */
function postedColour(formData: FormData, internalName: string, typed: string) {
  const picked = formData.get(pickedColourName(internalName));
  const shown = formData.get(shownColourName(internalName));
  if (typeof picked !== "string" || typeof shown !== "string" || typed !== shown) return typed;
  return HEX_COLOR.test(picked) && picked !== pickerColour(shown) ? picked : typed;
}

/**
 * The form's fields as appearance values: the action reads the post, the preview the form as it is
 * typed (checkboxes post a hidden "false", then the box's "true"). An image ticked "Remove" is no
 * image, in the preview as in what is saved.
 */
export function valuesFromForm(formData: FormData): AppearanceValues {
  const values: AppearanceValues = {};
  for (const field of ALL_APPEARANCE_FIELDS) {
    if (field.type === "image" && formData.get(removeImageName(field.internalName)) === "true") {
      values[field.internalName] = "";
      continue;
    }
    const posted = formData.getAll(field.internalName).filter((v): v is string => typeof v === "string");
    if (!posted.length) continue;
    if (field.type === "boolean") values[field.internalName] = posted.includes("true");
    else if (field.type === "number") values[field.internalName] = posted[0].trim() === "" ? "" : Number(posted[0]);
    else if (field.type === "color")
      values[field.internalName] = postedColour(formData, field.internalName, posted[posted.length - 1]);
    // A text box posts its line breaks as CR LF; the widget and the API keep them as LF.
    else values[field.internalName] = posted[posted.length - 1].replace(/\r\n?/g, "\n");
  }
  return values;
}

/**
 * The image fields of the form with a file chosen and not uploaded yet: the save uploads each and
 * shows it (a box ticked Remove beside it included), so the preview shows the file.
 */
export function chosenImages(formData: FormData): Record<string, File> {
  const chosen: Record<string, File> = {};
  for (const field of ALL_APPEARANCE_FIELDS.filter((f) => f.type === "image")) {
    const file = formData.get(`${field.internalName}__file`);
    if (file !== null && typeof file !== "string" && file.size > 0) chosen[field.internalName] = file;
  }
  return chosen;
}

/**
 * Each setting's value as text: what the page loaded, posted back as `loaded` so that a save sends
 * only the settings this page changed and keeps what a colleague saved meanwhile
 * (app/server/appearance.server.ts).
 */
export function appearanceBaseline(values: AppearanceValues): Record<string, string> {
  return Object.fromEntries(
    ALL_APPEARANCE_FIELDS.map((field) => [field.internalName, String(values[field.internalName] ?? "")]),
  );
}

/**
 * What a colour picker shows for a typed colour. A picker takes only #rrggbb, while the widget and
 * the API also take the short #rgb: that one is spelt out (#f00 is #ff0000), so the picker shows the
 * colour the preview does. Anything not a colour yet (half typed) shows black, as a picker's default.
 */
export function pickerColour(typed: string): string {
  if (!HEX_COLOR.test(typed)) return "#000000";
  const digits = typed.slice(1).toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

/**
 * A size value as the preview frame counts it: what the widget would take, kept within the field's
 * range (a value out of range is refused on save, and must not grow the frame without end).
 */
function sizeValue(values: AppearanceValues, internalName: string): number {
  const field = ALL_APPEARANCE_FIELDS.find((f) => f.internalName === internalName)!;
  const value = values[internalName];
  if (typeof value !== "number" || !Number.isFinite(value)) return Number(field.defaultValue);
  return Math.min(Math.max(value, field.min ?? value), field.max ?? value);
}

/**
 * The preview frame's smallest size: a window in which the widget shows its panel whole at the
 * size set (a smaller one would shrink it, as a visitor's small window does), and the corner the
 * widget sits in, which a frame larger than its box is scrolled to.
 */
export function previewFrame(values: AppearanceValues) {
  const size = windowForPanel({
    width: sizeValue(values, "width"),
    height: sizeValue(values, "height"),
    offset: sizeValue(values, "offset"),
  });
  return { ...size, left: values.position === "bottom-left" };
}

export type PreviewFrame = ReturnType<typeof previewFrame>;

/** What the empty preview says with JavaScript off: the widget is a script, so it needs JavaScript. */
export const PREVIEW_WITHOUT_JAVASCRIPT =
  "The preview is empty because JavaScript is off in this browser: the chat widget is a script. Turn JavaScript on to see it here, with your unsaved changes, or open Bot Testing's Test Chatbot page with JavaScript on to try the saved widget.";

/**
 * A setting's value as the push question shows it: a choice by its label, a switch as On or Off, a
 * number with its unit, an empty text or image as "None" (an image itself is shown as a thumbnail).
 */
export function appearanceValueText(internalName: string, value: unknown): string {
  const field = ALL_APPEARANCE_FIELDS.find((f) => f.internalName === internalName);
  if (value === undefined || value === null || value === "") return "None";
  if (!field) return String(value);
  if (field.type === "boolean") return value === true ? "On" : "Off";
  if (field.options.length) return field.options.find((option) => option.value === value)?.label ?? String(value);
  if (field.type === "number" && field.unit) return `${String(value)} ${field.unit}`;
  return String(value);
}

/** Whether a setting's value is an image, which the push question shows as a thumbnail. */
export const isImageSetting = (internalName: string) =>
  ALL_APPEARANCE_FIELDS.some((f) => f.internalName === internalName && f.type === "image");
