import { ALL_APPEARANCE_FIELDS, HEX_COLOR, type AppearanceValues } from "@contract/values/appearance";

/** The "Remove" box beside an image field. */
export const removeImageName = (internalName: string) => `${internalName}__remove`;

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
    else values[field.internalName] = posted[posted.length - 1];
  }
  return values;
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

/** What the empty preview says with JavaScript off: the widget is a script, so it needs JavaScript. */
export const PREVIEW_WITHOUT_JAVASCRIPT =
  "The preview is empty because JavaScript is off in this browser: the chat widget is a script. Turn JavaScript on to see it here, with your unsaved changes, or open Bot Testing's Test Chatbot page with JavaScript on to try the saved widget.";
