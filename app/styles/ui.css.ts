import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: `6px 14px`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
  fontWeight: 500,
  cursor: "pointer",
  textDecoration: "none",
  // A label never breaks over two lines ('Run now' in a narrow column).
  whiteSpace: "nowrap",
  minHeight: vars.size.control,
  justifyContent: "center",
  selectors: { "&:disabled, &[aria-disabled='true']": { opacity: 0.55, cursor: "not-allowed" } },
});

export const button = styleVariants({
  primary: [
    buttonBase,
    { background: vars.color.primary, borderColor: vars.color.primary, color: vars.color.primaryText },
  ],
  secondary: [buttonBase],
  danger: [buttonBase, { background: vars.color.error, borderColor: vars.color.error, color: "#fff" }],
  link: [buttonBase, { border: "none", background: "none", color: vars.color.primary, padding: 0, minHeight: "auto" }],
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.lg,
  boxShadow: vars.shadow.card,
});

export const field = style({ display: "grid", gap: vars.space.xs, marginBottom: vars.space.md });
export const label = style({ fontWeight: 600 });
export const input = style({
  font: "inherit",
  padding: "7px 10px",
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  minWidth: 0,
  minHeight: vars.size.control,
  selectors: { "&[aria-invalid='true']": { borderColor: vars.color.error, background: vars.color.invalid } },
});
/**
 * A field's messages, one a line (joined by "\n"): on one line, two messages that do not end in a
 * full stop run together ("… does not visit This client already has …").
 */
export const fieldError = style({ color: vars.color.error, fontSize: "13px", margin: 0, whiteSpace: "pre-line" });
export const muted = style({ color: vars.color.muted });
export const toolbar = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  flexWrap: "wrap",
  marginBottom: vars.space.md,
});
// Wrapping, the buttons go under a title with no room beside them, rather than squeezing it until
// its words break.
export const pageHeader = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  alignItems: "center",
  gap: vars.space.md,
  marginBottom: vars.space.md,
});

export const chip = styleVariants({
  default: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: "#eceff4",
    color: vars.color.muted,
  },
  success: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: vars.color.successSoft,
    color: vars.color.success,
  },
  warning: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: vars.color.warningSoft,
    color: vars.color.warning,
  },
  error: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: vars.color.errorSoft,
    color: vars.color.error,
  },
  info: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: vars.color.infoSoft,
    color: vars.color.info,
  },
  secondary: {
    padding: "2px 8px",
    borderRadius: "999px",
    fontSize: "12px",
    fontWeight: 600,
    background: "#efe7ff",
    color: "#5b2bb5",
  },
});

/** A box of no visible size, its text still read by screen readers (also for what is hidden only until focused). */
export const HIDDEN_BOX = {
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0,0,0,0)",
  whiteSpace: "nowrap",
  border: 0,
} as const;

export const visuallyHidden = style({ position: "absolute", ...HIDDEN_BOX });

export const pre = style({
  fontFamily: vars.font.mono,
  fontSize: "12px",
  background: "#0f172a",
  color: "#e2e8f0",
  padding: vars.space.md,
  borderRadius: vars.radius.sm,
  overflowX: "auto",
  maxHeight: "320px",
  margin: 0,
});

/**
 * A wide table scrolls inside its own box, never the page. `position: relative` keeps what is
 * absolutely placed inside (visually hidden labels) within that box too, instead of widening
 * the page from outside it.
 */
export const tableScroll = style({
  position: "relative",
  overflowX: "auto",
  maxWidth: "100%",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
});

/** A name the system uses ("database-maintenance"): never broken at its hyphens. */
export const identifier = style({ whiteSpace: "nowrap" });

/** A table cell of a date and time: "12/02/2026 | 11:08" never breaks between the two, and its digits line up. */
export const dateTimeCell = style({ whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" });

/**
 * A table of many columns: half the usual space between them (the first keeps its inset), so that
 * tables of eight or nine columns fit a 1,400-pixel window beside the navigation.
 */
export const denseTable = style({});
globalStyle(`${denseTable} > thead > tr > th, ${denseTable} > tbody > tr > td`, {
  paddingLeft: vars.space.sm,
  paddingRight: vars.space.sm,
});
globalStyle(`${denseTable} > thead > tr > th:first-child, ${denseTable} > tbody > tr > td:first-child`, {
  paddingLeft: vars.space.md,
});

/**
 * A table whose last column (a row's actions) stays in view when the table scrolls sideways: the
 * row menu, Edit, Lower and Exclude are where the eye looks for them, whatever the window's width.
 * Without specificity (`:where`), so a flagged row's own background still colours its last cell.
 */
export const lastColumnInView = style({});
globalStyle(
  `:where(${lastColumnInView} > thead > tr > th:last-child, ${lastColumnInView} > tbody > tr > td:last-child:not([colspan]))`,
  {
    position: "sticky",
    right: 0,
    zIndex: 1,
    background: vars.color.surface,
    boxShadow: `-1px 0 0 ${vars.color.border}`,
  },
);

/**
 * The `<details>` menus and popovers: the summary is the anchor, the panel floats below it. Where
 * CSS anchor positioning exists the panel is `position: fixed` on the anchor, so no scrolling
 * container (a table's box, a drawer) can clip it, and it flips above or to the other side when
 * the viewport has no room; elsewhere it falls back to a plain absolute panel.
 */
export const popover = style({ position: "relative", display: "inline-block", anchorScope: "--popover" });
export const popoverSummary = style({
  listStyle: "none",
  cursor: "pointer",
  anchorName: "--popover",
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});
const popoverPanelBase = style({
  position: "absolute",
  zIndex: 40,
  top: "calc(100% + 4px)",
  margin: 0,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.popover,
  maxHeight: "min(70vh, 560px)",
  overflowY: "auto",
});
const anchored = {
  position: "fixed",
  positionAnchor: "--popover",
  top: "anchor(bottom)",
  marginTop: "4px",
  positionTryFallbacks: "flip-block, flip-inline",
} as const;
export const popoverPanel = styleVariants({
  /** Right edges aligned: a row's ⋯ menu, the profile menu. */
  alignEnd: [
    popoverPanelBase,
    { right: 0, "@supports": { "(anchor-name: --a)": { ...anchored, right: "anchor(right)" } } },
  ],
  /** Left edges aligned: filter menus. */
  alignStart: [
    popoverPanelBase,
    { left: 0, "@supports": { "(anchor-name: --a)": { ...anchored, left: "anchor(left)" } } },
  ],
});

/** The shared table's sortable header and pager. */
export const sortLink = style({
  color: "inherit",
  textDecoration: "none",
  whiteSpace: "nowrap",
  selectors: {
    "&:hover": { color: vars.color.primary },
    "&::after": { marginLeft: vars.space.xs, color: vars.color.muted },
    // Each arrow's alternative text is empty ("/ ''"): the link's name stays the column's name
    // ("Email", not "Email↕"); aria-sort on the header says the order.
    "&[data-sort='none']::after": { content: "'↕' / ''" },
    "&[data-sort='ascending']::after": { content: "'▲' / ''" },
    "&[data-sort='descending']::after": { content: "'▼' / ''" },
  },
});
export const pager = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  marginTop: vars.space.md,
});
export const pagerForm = style({ display: "flex", alignItems: "center", gap: vars.space.sm, margin: 0 });
