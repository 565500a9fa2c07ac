import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const intro = style({ color: vars.color.muted, maxWidth: "72ch", marginTop: 0 });
export const filters = style({
  display: "flex",
  gap: vars.space.md,
  alignItems: "flex-end",
  flexWrap: "wrap",
  marginBottom: vars.space.lg,
});
export const filterField = style({ display: "grid", gap: vars.space.xs });
export const totals = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))",
  gap: vars.space.md,
  margin: `0 0 ${vars.space.lg}`,
  padding: 0,
});
export const total = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  background: vars.color.surface,
});
globalStyle(`${total} dt`, { color: vars.color.muted, fontSize: "13px" });
globalStyle(`${total} dd`, { fontSize: "24px", fontWeight: 600 });
export const grid = style({
  display: "grid",
  // Panels of 420 px or more side by side, or one a row the width of a narrower window.
  gridTemplateColumns: "repeat(auto-fit, minmax(min(420px, 100%), 1fr))",
  gap: vars.space.lg,
});
export const panel = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  background: vars.color.surface,
  minWidth: 0,
});
export const panelHeader = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "baseline",
  gap: vars.space.sm,
  marginBottom: vars.space.sm,
});
export const figure = style({ margin: 0, position: "relative" });
export const svg = style({ width: "100%", height: "auto", display: "block", overflow: "visible" });
export const rankList = style({ listStyle: "none", margin: 0, padding: 0, fontSize: "13px", lineHeight: 1.3 });
/** A ranked item: its label on the left half, its bar and count on the right. */
export const rankRow = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
  alignItems: "center",
  gap: vars.space.sm,
  padding: "3px 0",
});
export const rankLabel = style({
  display: "block",
  // The containing block of the link's visually hidden hint: clipped with the label, not laid out at the figure's edge.
  position: "relative",
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});
export const rankBarCell = style({ display: "flex", alignItems: "center", gap: "6px" });
export const rankBar = style({ height: "14px", minWidth: "2px", borderRadius: "2px", background: "#2563eb" });
export const rankValue = style({ color: "#475569", fontVariantNumeric: "tabular-nums" });
export const legend = style({
  display: "flex",
  gap: vars.space.md,
  flexWrap: "wrap",
  listStyle: "none",
  padding: 0,
  margin: `${vars.space.sm} 0`,
  fontSize: "13px",
});
export const swatch = style({
  display: "inline-block",
  width: "10px",
  height: "10px",
  borderRadius: "2px",
  marginRight: "6px",
});
export const tooltip = style({
  position: "absolute",
  pointerEvents: "none",
  background: "#0f172a",
  color: "#fff",
  fontSize: "12px",
  padding: "4px 8px",
  borderRadius: vars.radius.sm,
  whiteSpace: "nowrap",
  transform: "translate(-50%, -120%)",
  zIndex: 2,
});
export const figures = style({ marginTop: vars.space.sm, fontSize: "13px" });
// A question of one long word wraps in its cell rather than pushing the counts thousands of pixels away.
globalStyle(`${figures} td`, { overflowWrap: "anywhere" });
export const empty = style({ color: vars.color.muted, margin: `${vars.space.md} 0` });
export const closest = style({
  margin: `${vars.space.xs} 0 0`,
  paddingLeft: vars.space.md,
  color: vars.color.muted,
  fontSize: "13px",
});
export const scoreRule = style({ color: vars.color.muted, fontSize: "13px" });
/** A lead score's reason ("2 questions +4") is never broken inside: the list wraps between reasons. */
export const leadReason = style({ whiteSpace: "nowrap" });
/** An unanswered question an action was just taken on (the address's fragment): marked. */
/** A visitor's question may be one long word: it wraps inside the panel rather than widening the page. */
export const gap = style({
  overflowWrap: "anywhere",
  selectors: { "&:target": { outline: `2px solid ${vars.color.primary}`, outlineOffset: "2px" } },
});
export const inlineForm = style({ display: "inline", marginLeft: vars.space.sm });
export const unhelpfulList = style({
  display: "grid",
  gap: vars.space.md,
  paddingLeft: vars.space.lg,
  overflowWrap: "anywhere",
});
// An answer can run long: three lines are enough to recognise it; the conversation holds the rest.
export const answerText = style({
  margin: `${vars.space.xs} 0 0`,
  fontSize: "13px",
  display: "-webkit-box",
  WebkitLineClamp: 3,
  WebkitBoxOrient: "vertical",
  overflow: "hidden",
});
export const comment = style({ margin: `${vars.space.xs} 0 0`, fontSize: "13px", fontStyle: "italic" });
