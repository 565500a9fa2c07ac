import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** The record forms (client, agent): fields in responsive columns, logo row, actions. */
export const formGrid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(280px, 1fr))",
  columnGap: vars.space.lg,
  alignItems: "start",
  border: "none",
  margin: 0,
  padding: 0,
  minWidth: 0,
});
export const readOnlyInput = style({ background: vars.color.canvas, color: vars.color.muted });
export const hint = style({ color: vars.color.muted, fontSize: "13px", margin: 0 });
export const logoRow = style({ display: "flex", alignItems: "center", gap: vars.space.md, minWidth: 0 });
export const logoPreview = style({
  width: "48px",
  height: "48px",
  flex: "0 0 48px",
  objectFit: "contain",
  borderRadius: vars.radius.sm,
  background: vars.color.canvas,
  border: `1px solid ${vars.color.border}`,
});
export const actions = style({ display: "flex", gap: vars.space.sm, marginTop: vars.space.md });
export const formErrors = style({ marginBottom: vars.space.md });
