import { chosenImages } from "~/lib/appearance";

/**
 * The images chosen in the Appearance form and not saved yet, as addresses the preview can show
 * (object URLs of this page, which its preview frame shares). Each file keeps one address while it
 * stays chosen; an address is given back to the browser once its file is no longer chosen.
 */
export class PreviewImages {
  private readonly shown = new Map<string, { file: File; url: string }>();

  /** The chosen images by field name, as the preview's values. */
  show(formData: FormData): Record<string, string> {
    const chosen = chosenImages(formData);
    for (const [name, held] of this.shown)
      if (chosen[name] !== held.file) {
        URL.revokeObjectURL(held.url);
        this.shown.delete(name);
      }
    const values: Record<string, string> = {};
    for (const [name, file] of Object.entries(chosen)) {
      const held = this.shown.get(name) ?? { file, url: URL.createObjectURL(file) };
      this.shown.set(name, held);
      values[name] = held.url;
    }
    return values;
  }

  clear() {
    for (const { url } of this.shown.values()) URL.revokeObjectURL(url);
    this.shown.clear();
  }
}
