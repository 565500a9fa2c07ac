import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/* Agent list home */

export const preferences = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  marginBottom: vars.space.lg,
});
export const preferencesTitle = style({ fontSize: "15px", margin: 0, marginRight: vars.space.sm });

export const group = style({ marginBottom: vars.space.xl });

export const grid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, min(364px, 100%))",
  gap: vars.space.md,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

// The spec's 364 × 126 px, narrower in a window narrower than a card.
const cardSize = { width: "364px", maxWidth: "100%", height: "126px" } as const;

export const card = style({
  ...cardSize,
  position: "relative",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
  selectors: { "&:hover, &:focus-within": { borderColor: vars.color.primary } },
});

export const cardLink = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.md,
  height: "100%",
  // Room on the right for the edit button.
  padding: `${vars.space.md} 56px ${vars.space.md} ${vars.space.md}`,
  color: vars.color.text,
  textDecoration: "none",
  borderRadius: vars.radius.md,
});

export const logo = style({
  width: "64px",
  height: "64px",
  flex: "0 0 64px",
  objectFit: "contain",
  borderRadius: vars.radius.sm,
  background: vars.color.canvas,
});

export const cardBody = style({ minWidth: 0, display: "grid", gap: "2px" });
export const cardName = style({
  fontSize: "16px",
  margin: 0,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});
export const cardMeta = style({
  margin: 0,
  color: vars.color.muted,
  fontSize: "13px",
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});
export const status = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  color: vars.color.muted,
  fontSize: "13px",
});
export const dot = style({
  width: "8px",
  height: "8px",
  borderRadius: "50%",
  display: "inline-block",
  background: vars.color.muted,
});
export const dotActive = style({ background: vars.color.success });

export const editButton = style({
  position: "absolute",
  top: vars.space.sm,
  right: vars.space.sm,
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "36px",
  height: "36px",
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.primary,
  selectors: { "&:hover": { background: vars.color.primarySoft } },
});
export const icon = style({ width: "18px", height: "18px" });

export const createCard = style({
  ...cardSize,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  border: `2px dashed ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.primary,
  fontWeight: 600,
  fontSize: "15px",
  textDecoration: "none",
  selectors: { "&:hover, &:focus-visible": { borderColor: vars.color.primary, background: vars.color.primarySoft } },
});

export const empty = style({ color: vars.color.muted, margin: `0 0 ${vars.space.md}` });

/* Agent form */

export const form = style({ maxWidth: "720px" });
export const notice = style({
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  background: vars.color.infoSoft,
  color: vars.color.info,
});
