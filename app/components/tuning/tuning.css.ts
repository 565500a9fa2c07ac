import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const intro = style({ color: vars.color.muted, maxWidth: "72ch", marginTop: 0 });

/** One finetuning table: its title, what it does, '+ Add', the rows. */
export const section = style({ marginBottom: vars.space.xl });
export const sectionHeader = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "flex-start",
  gap: vars.space.md,
  marginBottom: vars.space.sm,
});
export const help = style({
  color: vars.color.muted,
  fontSize: "13px",
  margin: `0 0 ${vars.space.sm}`,
  maxWidth: "80ch",
});
export const code = style({
  fontFamily: vars.font.mono,
  fontSize: "12px",
  background: vars.color.canvas,
  padding: "1px 4px",
  borderRadius: vars.radius.sm,
});

export const actionsCell = style({ whiteSpace: "nowrap", paddingTop: "12px", width: "1%" });

/** The delete icon button of a row. */
export const iconButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  padding: 0,
  border: `1px solid transparent`,
  borderRadius: vars.radius.sm,
  background: "none",
  color: vars.color.error,
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.errorSoft, borderColor: vars.color.error },
    "&:disabled": { opacity: 0.55, cursor: "not-allowed" },
  },
});
export const icon = style({ width: "18px", height: "18px" });

/** The Input Prompts table: the prompt gets most of the width. */
export const promptsTable = style({});
globalStyle(`${promptsTable} th:first-child`, { width: "28%" });
