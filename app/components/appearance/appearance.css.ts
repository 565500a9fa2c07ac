import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * Where the form and its preview no longer fit side by side: beside the navigation's column, the
 * form would be squeezed to a sliver by the preview's 320 px up to about this width.
 */
const TOO_NARROW_FOR_TWO_COLUMNS = "screen and (max-width: 1100px)";

/** The form beside its preview; in a narrow window the form first, then the preview under it. */
export const layout = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) minmax(320px, 440px)",
  gap: vars.space.lg,
  alignItems: "start",
  "@media": { [TOO_NARROW_FOR_TWO_COLUMNS]: { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const section = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  marginBottom: vars.space.md,
  padding: `0 ${vars.space.md}`,
});
export const summary = style({ cursor: "pointer", fontWeight: 700, padding: `${vars.space.sm} 0` });
export const group = style({
  border: "none",
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(220px, 1fr))",
  gap: vars.space.sm,
});
/** A text of several lines takes the group's whole width, rather than stretching the one-line box beside it. */
export const wide = style({ gridColumn: "1 / -1" });
export const legend = style({ fontWeight: 600, marginBottom: vars.space.xs, color: vars.color.muted });
export const colour = style({ display: "flex", gap: vars.space.xs, alignItems: "center" });
export const swatch = style({
  width: "40px",
  height: "34px",
  padding: 0,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: "none",
});
/**
 * The preview's column: it stays in view below the top bar, at most as high as the window leaves
 * room for. Its frame grows to show the widget's panel at its real size (up to 480 × 720 px, 64 px
 * from the edge) and scrolls in `previewScroller` when larger, under a note that says so.
 */
export const preview = style({
  position: "sticky",
  top: `calc(${vars.size.topBar} + ${vars.space.md})`,
  maxHeight: `calc(100vh - ${vars.size.topBar} - 2 * ${vars.space.md})`,
  display: "flex",
  flexDirection: "column",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  overflow: "hidden",
  background: vars.color.canvas,
  // Under the form it scrolls with the page: stuck, it would cover the fields above it.
  "@media": { [TOO_NARROW_FOR_TWO_COLUMNS]: { position: "static" } },
});
export const previewNote = style({
  margin: 0,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  color: vars.color.muted,
  fontSize: "13px",
});
export const previewScroller = style({ overflow: "auto", minHeight: 0 });
/** At least the box's width and 680 px high; the page sets the larger size a panel needs. */
export const frame = style({ width: "100%", height: "680px", border: "none", display: "block" });
export const confirm = style({
  border: `1px solid ${vars.color.warning}`,
  background: vars.color.surface,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
});
/** An image field: its thumbnail, file input and Remove box one under another, within its column. */
export const image = style({ display: "grid", gap: vars.space.xs, justifyItems: "start", minWidth: 0 });
export const thumb = style({ maxHeight: "40px", maxWidth: "120px", display: "block" });
/** The column's width, not the file input's own (about 325 px in Chromium, wider than a column at 1280 px). */
export const file = style({ width: "100%", minWidth: 0 });
