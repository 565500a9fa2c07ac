/**
 * Whether any field of a form differs from what the page was rendered with: a text's value from its
 * default, a box's or option's checked state from its default, a file chosen. A screen asks this
 * when it hydrates, so that what a user typed before the page's JavaScript ran counts as an unsaved
 * change (the typing fired no event that React saw).
 */
export function formEditedSinceRender(form: HTMLFormElement): boolean {
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement) {
      if (element.type === "checkbox" || element.type === "radio") {
        if (element.checked !== element.defaultChecked) return true;
      } else if (element.type === "file") {
        if (element.files?.length) return true;
      } else if (element.type !== "hidden" && element.type !== "submit" && element.type !== "button" && element.value !== element.defaultValue) {
        return true;
      }
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.value !== element.defaultValue) return true;
    } else if (element instanceof HTMLSelectElement) {
      const options = Array.from(element.options);
      // With no option marked selected, a single select starts on its first.
      const startsOn = options.some((option) => option.defaultSelected) ? options.map((option) => option.defaultSelected)
        : options.map((_, index) => !element.multiple && index === 0);
      if (options.some((option, index) => option.selected !== startsOn[index])) return true;
    }
  }
  return false;
}
