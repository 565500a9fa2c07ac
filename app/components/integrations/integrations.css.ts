import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const intro = style({ color: vars.color.muted, maxWidth: "72ch", marginTop: 0 });

/** The cards of one group (CRM or LMS), as many columns as fit. */
export const group = style({ marginBottom: vars.space.xl });
export const cards = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(250px, 1fr))",
  gap: vars.space.md,
  listStyle: "none",
  padding: 0,
  margin: 0,
});
export const card = style({
  display: "grid",
  gridTemplateColumns: "40px 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  alignItems: "start",
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: "inherit",
  textDecoration: "none",
  boxShadow: vars.shadow.card,
  height: "100%",
  selectors: { "&:hover, &:focus-visible": { borderColor: vars.color.primary } },
});
export const icon = style({ width: "40px", height: "40px", gridRow: "span 3" });
export const cardTitle = style({ fontWeight: 600 });
export const usecases = style({ color: vars.color.muted, fontSize: "13px" });
export const linked = style({ display: "flex", gap: vars.space.xs, flexWrap: "wrap" });

/** The drawer: the guide, the use-case and environment choices (links, so they work without JavaScript), then the form. */
export const guide = style({ display: "inline-block", marginBottom: vars.space.md });
export const choice = style({ margin: `0 0 ${vars.space.md}` });
export const choiceLabel = style({ fontWeight: 600, margin: `0 0 ${vars.space.xs}` });
export const choices = style({
  display: "flex",
  gap: vars.space.xs,
  flexWrap: "wrap",
  margin: 0,
  padding: 0,
  listStyle: "none",
});
export const status = style({ margin: `0 0 ${vars.space.md}` });
export const form = style({ maxWidth: "560px" });
export const requiredNote = style({ fontSize: "13px", margin: `0 0 ${vars.space.md}` });
