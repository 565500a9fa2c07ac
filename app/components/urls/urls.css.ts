import { keyframes, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import * as ui from "~/styles/ui.css";

export const summary = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.lg,
  margin: `0 0 ${vars.space.md}`,
  color: vars.color.muted,
});
export const summaryValue = style({ color: vars.color.text, fontWeight: 600 });
export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "center",
  marginBottom: vars.space.md,
});
export const grow = style({ flex: 1 });
export const inlineForm = style({ display: "flex", gap: vars.space.xs, alignItems: "center", margin: 0 });

export const menu = ui.popover;
export const menuSummary = ui.popoverSummary;
export const menuPanel = style([
  ui.popoverPanel.alignStart,
  { minWidth: "280px", padding: vars.space.md, display: "grid", gap: vars.space.md },
]);
export const fieldset = style({ border: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.xs });
export const legend = style({ fontWeight: 600, marginBottom: vars.space.xs });
export const check = style({ display: "flex", gap: vars.space.sm, alignItems: "center" });
export const badge = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minWidth: "20px",
  height: "20px",
  padding: "0 6px",
  borderRadius: "999px",
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: "12px",
  fontWeight: 600,
});

export const addLinks = style({ display: "grid", gap: vars.space.sm, marginBottom: vars.space.md, maxWidth: "720px" });
export const textarea = style({
  font: "inherit",
  padding: "7px 10px",
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  resize: "vertical",
  selectors: { "&[aria-invalid='true']": { borderColor: vars.color.error, background: vars.color.invalid } },
});
export const errorText = style({ color: vars.color.error, margin: 0, fontSize: "13px", overflowWrap: "anywhere" });
export const errorBox = style({
  color: vars.color.error,
  background: vars.color.errorSoft,
  border: `1px solid ${vars.color.error}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.md,
  margin: 0,
});
export const filtered = style({ fontWeight: 600, margin: `0 0 ${vars.space.sm}` });
/** The view holds more URLs than one exported file: said in the page's quieter text. */
export const exportNote = style({ color: vars.color.muted, margin: `0 0 ${vars.space.sm}` });

export const table = style({ width: "100%", borderCollapse: "collapse", background: vars.color.surface });
export const th = style({
  textAlign: "left",
  padding: `${vars.space.sm} ${vars.space.sm}`,
  borderBottom: `2px solid ${vars.color.border}`,
  fontSize: "13px",
  textTransform: "uppercase",
  letterSpacing: "0.02em",
  color: vars.color.muted,
  whiteSpace: "nowrap",
});
export const td = style({
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
});
export const checkCell = style({ width: "36px" });
export const urlLink = style({ color: vars.color.primary, overflowWrap: "anywhere" });
export const title = style({ color: vars.color.muted, fontSize: "13px", overflowWrap: "anywhere" });
export const sortLink = style({ color: "inherit", textDecoration: "none", display: "inline-flex", gap: vars.space.xs });
export const daysInput = style({ width: "80px" });
export const empty = style({ padding: vars.space.lg, textAlign: "center", color: vars.color.muted });

export const pager = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "center",
  justifyContent: "flex-end",
  marginTop: vars.space.md,
});

export const jsonControls = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "center",
  marginBottom: vars.space.md,
});
const jsonBase = style({
  fontFamily: vars.font.mono,
  padding: vars.space.md,
  borderRadius: vars.radius.sm,
  overflow: "auto",
  margin: 0,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  border: `1px solid ${vars.color.border}`,
});
export const json = styleVariants({
  dark: [jsonBase, { background: "#0f172a", color: "#e2e8f0" }],
  light: [jsonBase, { background: vars.color.canvas, color: vars.color.text }],
});
const spin = keyframes({ to: { transform: "rotate(360deg)" } });
export const spinner = style({
  width: "28px",
  height: "28px",
  borderRadius: "50%",
  border: `3px solid ${vars.color.border}`,
  borderTopColor: vars.color.primary,
  animationName: spin,
  animationDuration: "0.8s",
  animationIterationCount: "infinite",
  animationTimingFunction: "linear",
});
/** The JSON viewer's font sizes, 10 to 24 px in steps of 2. */
export const jsonFont = styleVariants(
  Object.fromEntries(
    [10, 12, 14, 16, 18, 20, 22, 24].map((size) => [String(size), { fontSize: `${size}px` }]),
  ) as Record<string, { fontSize: string }>,
);
