/**
 * What a user types, picks or ticks while the page's JavaScript is still loading (a slow connection)
 * fires no React event. Hydration then resets some fields to what React rendered (selects, text
 * areas), and the first re-render of a controlled field resets the rest, so the edit is lost without
 * a word. The entry remembers every edited field before hydration, and every edit made while React
 * hydrates (app/entry.client.tsx); once hydrated, each is set again the way a user's own edit would
 * reach React (an input or change event), so every screen's state, dirty flag and preview see it.
 */

interface TypedField {
  /** The field's place among the page's fields, with what identifies it there. */
  index: number;
  tag: string;
  name: string;
  type: string;
  value?: string;
  checked?: boolean;
  /** A file input with files chosen (hydration leaves them; only the event is missing). */
  chosen?: boolean;
  selected?: boolean[];
}

const FIELDS = "input, textarea, select";
/** Fields that hold nothing a user types or picks in place. */
const NOT_EDITED = new Set(["hidden", "submit", "button", "reset", "image"]);
/** At most this many fields are remembered (a page is never near it; it bounds a hostile page's cost). */
const MAX_FIELDS = 2000;

let remembered: TypedField[] = [];
/**
 * Fields edited after the entry looked and before hydration ended, by their place among the page's
 * fields, in the order the edits happened. A browser's autofill sets a field and fires its events
 * with no key pressed; React then finishes hydrating at once and takes the new value for the one it
 * rendered, so a field whose state React keeps (the colour fields) went back to the saved value on
 * the page's next render.
 */
const editedWhileHydrating = new Map<number, TypedField>();
const EDIT_EVENTS = ["input", "change"] as const;

function noteEditWhileHydrating(event: Event) {
  const element = event.target;
  if (!(element instanceof Element) || !element.matches(FIELDS)) return;
  const index = Array.from(document.querySelectorAll(FIELDS)).indexOf(element);
  if (index < 0 || index >= MAX_FIELDS) return;
  // A radio is noted even when chosen back to its saved option: that undoes an earlier choice in
  // its group, which no event of the other radio says.
  const edit =
    element instanceof HTMLInputElement && element.type === "radio"
      ? { ...identityOf(element, index), type: "radio", checked: element.checked }
      : editedField(element, index);
  editedWhileHydrating.delete(index);
  if (edit) editedWhileHydrating.set(index, edit);
}

/** What identifies a field at its place among the page's fields. */
const identityOf = (element: Element, index: number) => ({
  index,
  tag: element.tagName,
  name: element.getAttribute("name") ?? "",
});

function editedField(element: Element, index: number): TypedField | null {
  const base = identityOf(element, index);
  if (element instanceof HTMLInputElement) {
    if (NOT_EDITED.has(element.type)) return null;
    if (element.type === "file") return element.files?.length ? { ...base, type: "file", chosen: true } : null;
    if (element.type === "checkbox" || element.type === "radio") {
      return element.checked === element.defaultChecked
        ? null
        : { ...base, type: element.type, checked: element.checked };
    }
    return element.value === element.defaultValue ? null : { ...base, type: element.type, value: element.value };
  }
  if (element instanceof HTMLTextAreaElement) {
    return element.value === element.defaultValue ? null : { ...base, type: "textarea", value: element.value };
  }
  if (element instanceof HTMLSelectElement) {
    const options = Array.from(element.options);
    // With no option marked selected, a single select starts on its first.
    const marked = options.some((option) => option.defaultSelected);
    const edited = options.some(
      (option, at) => option.selected !== (marked ? option.defaultSelected : !element.multiple && at === 0),
    );
    return edited ? { ...base, type: "select", selected: options.map((option) => option.selected) } : null;
  }
  return null;
}

/**
 * Called before hydration: notes every field whose content differs from what the server rendered,
 * and then every edit made until the page has hydrated.
 */
export function rememberTypedBeforeHydration() {
  const fields = Array.from(document.querySelectorAll(FIELDS)).slice(0, MAX_FIELDS);
  remembered = fields.flatMap((element, index) => editedField(element, index) ?? []);
  for (const type of EDIT_EVENTS) document.addEventListener(type, noteEditWhileHydrating, true);
}

/**
 * Types `value` into a text field as a user would reach React: the field (and React's record of it)
 * first goes back to what React rendered, then the value is set past that record and an input event
 * fires, so React sees a change.
 */
function retype(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  element.value = element.defaultValue;
  const prototype = element instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(element, value);
  element.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Called once the page has hydrated: each remembered field, still the same field in the same place,
 * gets its edit again through the events a user's edit fires.
 */
export function replayTypedBeforeHydration() {
  for (const type of EDIT_EVENTS) document.removeEventListener(type, noteEditWhileHydrating, true);
  // Edits in the order they were made, each field's latest: what the entry saw, then what was
  // changed while hydrating (a later choice in a radio group comes after an earlier one).
  const edits = [
    ...remembered.filter((edit) => !editedWhileHydrating.has(edit.index)),
    ...editedWhileHydrating.values(),
  ];
  remembered = [];
  editedWhileHydrating.clear();
  if (!edits.length) return;
  const fields = Array.from(document.querySelectorAll(FIELDS));
  for (const edit of edits) {
    const element = fields[edit.index];
    if (!element || element.tagName !== edit.tag || (element.getAttribute("name") ?? "") !== edit.name) continue;
    if (element instanceof HTMLInputElement && element.type === edit.type) {
      if (edit.chosen) {
        if (element.files?.length) element.dispatchEvent(new Event("change", { bubbles: true }));
      } else if (edit.checked !== undefined) {
        // A radio left by the user is unchecked by the click on the one chosen, wherever it stands.
        if (element.type === "radio" && !edit.checked) continue;
        // Back to what React rendered (which its record now holds too), then the user's click.
        element.checked = element.defaultChecked;
        if (element.checked !== edit.checked) element.click();
      } else if (edit.value !== undefined) {
        retype(element, edit.value);
      }
    } else if (element instanceof HTMLTextAreaElement && edit.value !== undefined) {
      retype(element, edit.value);
    } else if (
      element instanceof HTMLSelectElement &&
      edit.selected &&
      edit.selected.length === element.options.length
    ) {
      Array.from(element.options).forEach((option, at) => {
        option.selected = edit.selected![at];
      });
      element.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
}
