/** The appearance contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/appearance.ts). */

export const APPEARANCE_SECTIONS = ["BASIC_SETTINGS_FIELDS", "ADVANCED_SETTINGS_FIELDS", "IMAGES_AND_ICONS"] as const;

export type AppearanceSection = (typeof APPEARANCE_SECTIONS)[number];

export const APPEARANCE_SECTION_TITLES: Record<AppearanceSection, string> = {
  BASIC_SETTINGS_FIELDS: "Basic settings",
  ADVANCED_SETTINGS_FIELDS: "Advanced Settings",
  IMAGES_AND_ICONS: "Images & Icons",
};

export const APPEARANCE_MESSAGES = {
  loadFailed: "Failed to load appearance settings.",
  saved: "Success!",
  confirmPush: "Are you sure?",
  pushed: "Pushed to production",
  /** In place of the push question when production already shows what stage has saved. */
  alreadyPushed: "Production already shows the stage values: there is nothing to push.",
  /** A push of stage's values that production already shows: nothing is written, History included. */
  nothingToPush: "Production already shows these values: nothing was pushed",
  /** Beside the push question while the form holds changes not saved: a push sends what stage has saved. */
  unsavedNotPushed:
    "Your unsaved changes are not part of this push: production gets what stage has saved. Save them first to push them too.",
  /** Beside Push to production without JavaScript, where the link leaves the page and what it holds. */
  saveBeforePush:
    "Push to production opens its question on a new page: save your changes first, or what you typed is not kept.",
} as const;

/** Environments of a widget: stage (Sandbox) and prod (Production). */
export const WIDGET_ENVIRONMENTS = ["stage", "prod"] as const;

export type WidgetEnvironment = (typeof WIDGET_ENVIRONMENTS)[number];

export const WIDGET_ENVIRONMENT_LABELS: Record<WidgetEnvironment, string> = { stage: "Sandbox", prod: "Production" };

/** Fonts the widget may use: system stacks only, so nothing is fetched from elsewhere. */
export const WIDGET_FONTS = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  sans: "Helvetica, Arial, sans-serif",
  serif: 'Georgia, "Times New Roman", serif',
  rounded: 'ui-rounded, "SF Pro Rounded", system-ui, sans-serif',
  mono: "ui-monospace, Menlo, Consolas, monospace",
} as const;

export type AppearanceFieldType = "text" | "number" | "color" | "image" | "select" | "radio" | "boolean";

export interface AppearanceField {
  name: string;
  internalName: string;
  label: string;
  type: AppearanceFieldType;
  options: { value: string; label: string }[];
  defaultValue: string | number | boolean;
  /** Where the value lands in the widget (a CSS property or a text slot), for the operator. */
  style: string;
  unit: string;
  isHidden: boolean;
  /** Which group of its section the field is shown in. */
  group: string;
  min?: number;
  max?: number;
  maxLength?: number;
  /** Text the widget cannot do without: it names the panel or the launcher, to the eye and to a screen reader. */
  required?: boolean;
  /** Text that may run over several lines (the widget keeps its line breaks): a box, not a one-line input, in the form. */
  multiline?: boolean;
}

const f = (
  field: Omit<AppearanceField, "name" | "options" | "unit" | "isHidden" | "style"> & Partial<AppearanceField>,
): AppearanceField => ({
  name: field.internalName,
  options: [],
  unit: "",
  isHidden: false,
  style: "",
  ...field,
});

/**
 * Everything an operator expects to set on a chat widget. Values are checked against these
 * definitions by the API (a colour is a hex colour, a number is in range, an image is one of our
 * stored images), and the widget applies them as CSS custom properties and text, never as markup.
 */
export const APPEARANCE_FIELDS: Record<AppearanceSection, AppearanceField[]> = {
  BASIC_SETTINGS_FIELDS: [
    f({
      group: "Texts",
      internalName: "bot_name",
      required: true,
      label: "Assistant Name",
      type: "text",
      defaultValue: "Virtual Assistant",
      maxLength: 60,
      style: "header title",
    }),
    f({
      group: "Texts",
      internalName: "greeting_message",
      label: "Greeting Message",
      type: "text",
      multiline: true,
      defaultValue: "Hi! How can I help you today?",
      maxLength: 300,
      style: "first message",
    }),
    f({
      group: "Texts",
      internalName: "input_placeholder",
      label: "Input Placeholder",
      type: "text",
      defaultValue: "Type your question…",
      maxLength: 80,
      style: "message box",
    }),
    f({
      group: "Texts",
      internalName: "launcher_text",
      required: true,
      label: "Launcher Text",
      type: "text",
      defaultValue: "Chat with us",
      maxLength: 40,
      style: "launcher label",
    }),
    f({
      group: "Colours",
      internalName: "primary_color",
      label: "Primary Colour",
      type: "color",
      defaultValue: "#1f4b99",
      style: "header, launcher, send button",
    }),
    f({
      group: "Colours",
      internalName: "header_text_color",
      label: "Header Text Colour",
      type: "color",
      defaultValue: "#ffffff",
      style: "header text",
    }),
    f({
      group: "Colours",
      internalName: "background_color",
      label: "Background Colour",
      type: "color",
      defaultValue: "#ffffff",
      style: "panel background",
    }),
    f({
      group: "Colours",
      internalName: "user_bubble_color",
      label: "Visitor Message Colour",
      type: "color",
      defaultValue: "#1f4b99",
      style: "visitor bubbles",
    }),
    f({
      group: "Colours",
      internalName: "user_text_color",
      label: "Visitor Text Colour",
      type: "color",
      defaultValue: "#ffffff",
      style: "visitor text",
    }),
    f({
      group: "Colours",
      internalName: "bot_bubble_color",
      label: "Assistant Message Colour",
      type: "color",
      defaultValue: "#eef2f7",
      style: "assistant bubbles",
    }),
    f({
      group: "Colours",
      internalName: "bot_text_color",
      label: "Assistant Text Colour",
      type: "color",
      defaultValue: "#14213d",
      style: "assistant text",
    }),
    f({
      group: "Typography",
      internalName: "font_family",
      label: "Font",
      type: "select",
      defaultValue: "system",
      style: "font-family",
      options: [
        { value: "system", label: "System" },
        { value: "sans", label: "Sans serif" },
        { value: "serif", label: "Serif" },
        { value: "rounded", label: "Rounded" },
        { value: "mono", label: "Monospace" },
      ],
    }),
    f({
      group: "Typography",
      internalName: "font_size",
      label: "Font Size",
      type: "number",
      defaultValue: 15,
      min: 12,
      max: 20,
      unit: "px",
      style: "font-size",
    }),
    f({
      group: "Layout",
      internalName: "position",
      label: "Position",
      type: "radio",
      defaultValue: "bottom-right",
      style: "corner of the page",
      options: [
        { value: "bottom-right", label: "Bottom right" },
        { value: "bottom-left", label: "Bottom left" },
      ],
    }),
    f({
      group: "Layout",
      internalName: "corner_radius",
      label: "Corner Radius",
      type: "number",
      defaultValue: 12,
      min: 0,
      max: 24,
      unit: "px",
      style: "border-radius",
    }),
  ],
  ADVANCED_SETTINGS_FIELDS: [
    f({
      group: "Size",
      internalName: "width",
      label: "Panel Width",
      type: "number",
      defaultValue: 380,
      min: 300,
      max: 480,
      unit: "px",
      style: "width",
    }),
    f({
      group: "Size",
      internalName: "height",
      label: "Panel Height",
      type: "number",
      defaultValue: 560,
      min: 400,
      max: 720,
      unit: "px",
      style: "height",
    }),
    f({
      group: "Size",
      internalName: "offset",
      label: "Distance From The Edge",
      type: "number",
      defaultValue: 20,
      min: 0,
      max: 64,
      unit: "px",
      style: "bottom / side",
    }),
    f({
      group: "Behaviour",
      internalName: "auto_open_delay",
      label: "Open By Itself After",
      type: "number",
      defaultValue: 0,
      min: 0,
      max: 120,
      unit: "s",
      style: "0 keeps it closed",
    }),
    f({
      group: "Behaviour",
      internalName: "show_sources",
      label: "Show Sources Under Answers",
      type: "boolean",
      defaultValue: true,
      style: "source links",
    }),
    f({
      group: "Behaviour",
      internalName: "z_index",
      label: "Stacking Order",
      type: "number",
      defaultValue: 2147483000,
      min: 1,
      max: 2147483647,
      style: "z-index",
      isHidden: true,
    }),
  ],
  IMAGES_AND_ICONS: [
    f({
      group: "Images",
      internalName: "avatar_url",
      label: "Assistant Avatar",
      type: "image",
      defaultValue: "",
      style: "beside assistant messages",
    }),
    f({
      group: "Images",
      internalName: "launcher_icon_url",
      label: "Launcher Icon",
      type: "image",
      defaultValue: "",
      style: "launcher button",
    }),
    f({
      group: "Images",
      internalName: "header_logo_url",
      label: "Header Logo",
      type: "image",
      defaultValue: "",
      style: "panel header",
    }),
  ],
};

export const ALL_APPEARANCE_FIELDS = APPEARANCE_SECTIONS.flatMap((section) => APPEARANCE_FIELDS[section]);

export type AppearanceValues = Record<string, string | number | boolean>;

export const APPEARANCE_DEFAULTS: AppearanceValues = Object.fromEntries(
  ALL_APPEARANCE_FIELDS.map((field) => [field.internalName, field.defaultValue]),
);

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Images an appearance may point at: only ones stored through upload_file. */
export const APPEARANCE_IMAGE_PATH = /^\/storage\/public\/appearance\/\d+\/[0-9a-f-]{36}\.(?:png|jpg|gif|webp|svg)$/;

/** The per-field error of a value, or null when it is acceptable. */
export function appearanceValueError(field: AppearanceField, value: unknown): string | null {
  switch (field.type) {
    case "color":
      return typeof value === "string" && HEX_COLOR.test(value) ? null : `${field.label} must be a colour like #1f4b99`;
    case "number": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n) || !Number.isInteger(n))
        return `${field.label} must be a whole number from ${field.min} to ${field.max}`;
      return n < (field.min ?? -Infinity) || n > (field.max ?? Infinity)
        ? `${field.label} must be a whole number from ${field.min} to ${field.max}`
        : null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : `${field.label} must be on or off`;
    case "select":
    case "radio":
      return field.options.some((o) => o.value === value)
        ? null
        : `Choose one of: ${field.options.map((o) => o.label).join(", ")}`;
    case "image":
      return value === "" || (typeof value === "string" && APPEARANCE_IMAGE_PATH.test(value))
        ? null
        : `${field.label} must be an image uploaded here`;
    default:
      if (typeof value !== "string") return `${field.label} must be text`;
      if (field.required && !value.trim()) return `${field.label} is required`;
      if (value.length > (field.maxLength ?? 300)) return `${field.label} is at most ${field.maxLength} characters`;
      // A one-line input drops line breaks, so a text it shows would lose them on the next save.
      if (!field.multiline && value.includes("\n")) return `${field.label} is one line: take out its line breaks`;
      // Text is shown as text, never markup; control characters have no business in it.
      return /\p{Cc}/u.test(value.replace(/\n/g, ""))
        ? `${field.label} contains characters that cannot be shown`
        : null;
  }
}
