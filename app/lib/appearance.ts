import { ALL_APPEARANCE_FIELDS, type AppearanceValues } from "@contract/values/appearance";

/** The form's fields as appearance values: the action reads the post, the preview the form as it is typed (checkboxes post a hidden "false", then the box's "true"). */
export function valuesFromForm(formData: FormData): AppearanceValues {
  const values: AppearanceValues = {};
  for (const field of ALL_APPEARANCE_FIELDS) {
    const posted = formData.getAll(field.internalName).filter((v): v is string => typeof v === "string");
    if (!posted.length) continue;
    if (field.type === "boolean") values[field.internalName] = posted.includes("true");
    else if (field.type === "number") values[field.internalName] = posted[0].trim() === "" ? "" : Number(posted[0]);
    else values[field.internalName] = posted[posted.length - 1];
  }
  return values;
}

/** What the empty preview says with JavaScript off: the widget is a script, so it needs JavaScript. */
export const PREVIEW_WITHOUT_JAVASCRIPT =
  "The preview is empty because JavaScript is off in this browser: the chat widget is a script. Turn JavaScript on to see it here, with your unsaved changes, or open Bot Testing's Test Chatbot page with JavaScript on to try the saved widget.";
