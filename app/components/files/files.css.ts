import { globalStyle, keyframes, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import * as ui from "~/styles/ui.css";

export const toolbar = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  justifyContent: "space-between",
  flexWrap: "wrap",
  marginBottom: vars.space.md,
});
export const search = style({ display: "flex", gap: vars.space.sm, alignItems: "center" });
export const uploadForm = style({ display: "flex", gap: vars.space.sm, alignItems: "center", flexWrap: "wrap" });

export const tableWrap = ui.tableScroll;
globalStyle(`${tableWrap} td`, { verticalAlign: "top" });
export const nameCell = style({ display: "grid", gap: "2px", minWidth: "14em", overflowWrap: "anywhere" });
export const detail = style({ color: vars.color.muted, fontSize: "13px" });
export const reason = style({
  color: vars.color.error,
  fontSize: "13px",
  margin: `${vars.space.xs} 0 0`,
  maxWidth: "28em",
});
export const tags = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  border: "none",
  margin: 0,
  padding: 0,
});
export const actions = style({ display: "flex", gap: vars.space.sm, alignItems: "center", whiteSpace: "nowrap" });

export const uploads = style({
  listStyle: "none",
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  display: "grid",
  gap: vars.space.xs,
});
export const upload = style({
  display: "grid",
  gridTemplateColumns: "minmax(10em, 1fr) minmax(8em, 16em) auto",
  gap: vars.space.sm,
  alignItems: "center",
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
});
export const progress = style({ width: "100%", height: "10px" });
export const uploadState = styleVariants({
  waiting: { color: vars.color.muted },
  uploading: { color: vars.color.text },
  done: { color: vars.color.success },
  failed: { color: vars.color.error },
});

const spin = keyframes({ to: { transform: "rotate(360deg)" } });
export const buttonSpinner = style({
  display: "inline-block",
  width: "14px",
  height: "14px",
  borderRadius: "50%",
  border: "2px solid currentColor",
  borderRightColor: "transparent",
  marginRight: vars.space.xs,
  verticalAlign: "-2px",
  animationName: spin,
  animationDuration: "0.8s",
  animationIterationCount: "infinite",
  animationTimingFunction: "linear",
});
