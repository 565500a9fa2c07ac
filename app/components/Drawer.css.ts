import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { bar as saveBar } from "~/components/SaveBar.css";
import { vars } from "~/styles/theme.css";

export const backdrop = style({ position: "fixed", inset: 0, background: "rgba(15, 23, 42, 0.35)", zIndex: 50 });
const panelBase = style({
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  zIndex: 51,
  background: vars.color.surface,
  boxShadow: vars.shadow.popover,
  display: "flex",
  flexDirection: "column",
  maxWidth: "100vw",
});
export const panel = styleVariants({
  wide: [panelBase, { width: "75%" }],
  medium: [panelBase, { width: "60%" }],
  /** Near full width: tables with several wide columns (a data model's fields). */
  full: [panelBase, { width: "94%" }],
});
export const header = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  padding: `${vars.space.md} ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const body = style({ padding: vars.space.lg, overflowY: "auto", flex: 1 });

// The drawer scrolls on its own, under no top bar: a save bar inside it sticks to its very top.
globalStyle(`${body} ${saveBar}`, { top: 0 });
