import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/* Clients list */

export const tabs = style({
  display: "flex",
  gap: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
  marginBottom: vars.space.md,
  listStyle: "none",
  padding: 0,
  marginTop: 0,
});
export const tab = style({
  display: "block",
  padding: `${vars.space.sm} ${vars.space.md}`,
  color: vars.color.muted,
  textDecoration: "none",
  fontWeight: 600,
  borderBottom: "2px solid transparent",
  marginBottom: "-1px",
  selectors: {
    "&:hover": { color: vars.color.text },
    "&[aria-current='page']": { color: vars.color.primary, borderBottomColor: vars.color.primary },
  },
});
export const tabCount = style({ fontWeight: 400, marginLeft: vars.space.xs });

// In a 320 px window the second button goes under the first rather than past the window's edge.
export const headerActions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
export const search = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  maxWidth: "100%",
  minWidth: 0,
});
// 280 px where there is room; in a narrow window it gives way to the button beside it.
export const searchInput = style({ width: "280px", minWidth: 0, flexShrink: 1 });

export const grid = style({
  display: "grid",
  // The cards' 364 px, or the whole width of a narrower window.
  gridTemplateColumns: "repeat(auto-fill, min(364px, 100%))",
  gap: vars.space.md,
  listStyle: "none",
  margin: 0,
  padding: 0,
});
export const clientCard = style({
  width: "364px",
  maxWidth: "100%",
  display: "flex",
  alignItems: "center",
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
  color: vars.color.text,
  textDecoration: "none",
  selectors: { "&:hover, &:focus-visible": { borderColor: vars.color.primary } },
});
export const clientLogo = style({
  width: "56px",
  height: "56px",
  flex: "0 0 56px",
  objectFit: "contain",
  borderRadius: vars.radius.sm,
  background: vars.color.canvas,
});
export const clientName = style({ fontSize: "16px", margin: 0, overflowWrap: "anywhere" });
export const status = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  color: vars.color.muted,
  fontSize: "13px",
});
export const greenDot = style({
  width: "8px",
  height: "8px",
  borderRadius: "50%",
  background: vars.color.success,
  display: "inline-block",
});

/* Onboard / edit form */

export const wide = style({ gridColumn: "1 / -1" });
export const checkboxField = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  marginBottom: vars.space.md,
});
export const fileInput = style({ flex: "1 1 0", minWidth: 0, width: "100%" });

/* Import */

export const checkboxCell = style({ width: "48px" });
