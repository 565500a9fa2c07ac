import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * Who made a change: an address of usual length on one line (a cell's width counts its padding), a
 * longer one broken before its "@" (EmailAddress).
 */
export const who = style({ overflowWrap: "break-word", minWidth: "14em" });
export const summary = style({ cursor: "pointer", overflowWrap: "anywhere" });
export const lines = style({
  listStyle: "none",
  margin: `${vars.space.sm} 0 0`,
  padding: 0,
  display: "grid",
  gap: vars.space.sm,
});
export const line = style({ display: "grid", gap: "2px", overflowWrap: "anywhere" });
// Long texts (a personality) keep their lines and wrap inside the column, never widening the page.
const value = {
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  padding: "2px 6px",
  borderRadius: vars.radius.sm,
  display: "block",
} as const;
export const before = style({ ...value, background: vars.color.errorSoft, color: vars.color.error });
export const after = style({
  ...value,
  background: vars.color.successSoft,
  color: vars.color.success,
  textDecoration: "none",
});
export const restoreCell = style({ whiteSpace: "nowrap" });
// The two buttons of a row stand one above the other, the same width.
export const restoreForms = style({ display: "grid", gap: vars.space.xs });
export const restoreButton = style({ width: "100%" });
export const filterLabel = style({ display: "inline-flex", alignItems: "center", gap: vars.space.xs, fontWeight: 600 });
