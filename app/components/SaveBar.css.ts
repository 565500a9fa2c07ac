import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** Sticks under the top bar so Save stays in reach on long tables. */
export const bar = style({
  position: "sticky",
  top: vars.size.topBar,
  zIndex: 5,
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.md}`,
  marginBottom: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
});

/**
 * The bar's height: its padding, the button's height and the border. On a page with the bar, what
 * the browser scrolls into view (a field taking the focus, Shift+Tab included) stops below the bar
 * as well as the top bar, not hidden under it (WCAG 2.4.11).
 */
const barHeight = `calc(2 * ${vars.space.sm} + ${vars.size.control} + 2px)`;
globalStyle(`html:has(${bar})`, {
  scrollPaddingTop: `calc(${vars.size.topBar} + ${barHeight} + ${vars.space.md})`,
});

const statusBase = style({ margin: 0, fontSize: "13px", minHeight: "1.5em" });

export const status = styleVariants({
  idle: [statusBase, { color: vars.color.muted }],
  dirty: [statusBase, { color: vars.color.warning, fontWeight: 600 }],
  error: [statusBase, { color: vars.color.error, fontWeight: 600 }],
});
