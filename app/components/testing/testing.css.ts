import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const section = style({ marginBottom: vars.space.lg });
/** A card of the Questions section, with room before the next one. */
export const card = style({ marginBottom: vars.space.md });
// The card's padding is the room under its last row (a toolbar's own margin would add to it).
globalStyle(`${card} > :last-child`, { marginBottom: 0 });
/**
 * The question form's fields. Each field keeps its own height (`start`, not the grid's stretch,
 * which handed a short field's spare height to its label and input rows): labels and inputs of one
 * row line up whatever hint or error sits under one of them.
 */
export const grid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))",
  gap: vars.space.md,
  alignItems: "start",
});
export const wide = style({ gridColumn: "1 / -1" });

/** Export beside import: each a block of its own that wraps under the other on a narrow screen. */
export const csvTools = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: `${vars.space.md} ${vars.space.lg}`,
});
export const csvImport = style({ display: "grid", gap: vars.space.xs, minWidth: 0, margin: 0 });
export const csvPick = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  minWidth: 0,
});
export const fileInput = style({ minWidth: 0, maxWidth: "100%" });
export const csvErrors = style({ flexBasis: "100%", margin: 0, paddingLeft: vars.space.lg });

/** A run's facts: each label above its value. */
export const facts = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(160px, 1fr))",
  gap: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
});

export const cellText = style({ maxWidth: "420px", overflowWrap: "anywhere" });
/** An expected source breaks after its slashes (WebAddress), inside a word only when one part is too long. */
export const addressText = style({ maxWidth: "420px", overflowWrap: "break-word" });
/** A question's Edit and Delete, side by side: stacked, they made each row twice as tall as its text. */
export const rowActions = style({ display: "flex", gap: vars.space.sm, whiteSpace: "nowrap" });
export const inlineForm = style({ display: "inline", margin: 0 });
export const progress = style({ width: "min(320px, 100%)", height: "12px" });
export const answer = style({ whiteSpace: "pre-wrap", maxWidth: "520px", overflowWrap: "anywhere" });
/** A failed result's words no passage held, under its reason. */
export const lackedWords = style({
  display: "block",
  marginTop: vars.space.xs,
  color: vars.color.muted,
  fontSize: "13px",
});
