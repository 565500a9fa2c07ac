import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import * as ui from "~/styles/ui.css";

export const intro = style({ maxWidth: "72ch", marginTop: 0 });

export const fieldset = style({
  border: "none",
  margin: 0,
  padding: 0,
  minWidth: 0,
  display: "grid",
  gap: vars.space.xs,
});
export const formError = style({ marginBottom: vars.space.md });
export const readOnlyNote = style({ marginBottom: vars.space.md });

export const textarea = style({ width: "100%", resize: "vertical", lineHeight: 1.5 });
export const personality = style([textarea, { minHeight: "24em" }]);

export const tableWrap = ui.tableScroll;
export const table = style({ minWidth: "720px" });
export const rowNumber = style({ width: "3em", color: vars.color.muted, paddingTop: "15px" });
export const topicColumn = style({ width: "35%" });
export const columnHelp = style({ display: "block", fontWeight: 400, marginTop: vars.space.xs });
export const cellInput = style({
  width: "100%",
  selectors: { "&:disabled": { background: vars.color.canvas, color: vars.color.text } },
});

export const narrowInput = style({ maxWidth: "12em" });
export const checkboxRow = style({ display: "flex", alignItems: "center", gap: vars.space.sm });

// The Quality Check's evidence for the threshold.
export const evidence = style({ marginTop: vars.space.xl, maxWidth: "760px" });
export const evidenceNote = style({ fontSize: "13px", maxWidth: "72ch", marginTop: vars.space.sm });
export const evidenceFigure = style({ margin: `0 0 ${vars.space.md}` });
export const evidenceSvg = style({ width: "100%", height: "auto", display: "block", overflow: "visible" });
export const legend = style({
  display: "flex",
  gap: vars.space.md,
  flexWrap: "wrap",
  listStyle: "none",
  padding: 0,
  margin: `${vars.space.sm} 0`,
  fontSize: "13px",
});
globalStyle(`${legend} svg`, { marginRight: "6px", verticalAlign: "middle" });
export const todayRow = style({ background: vars.color.primarySoft });
export const todayMark = style({ color: vars.color.text });

/** Default's topics under an agent's own, read-only. */
export const inherited = style({ marginTop: vars.space.lg });
