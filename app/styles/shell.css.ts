import { style } from "@vanilla-extract/css";
import { NARROW_WINDOW as NARROW, vars } from "./theme.css";
import { HIDDEN_BOX, popover, popoverPanel, popoverSummary } from "./ui.css";

export const layout = style({
  display: "grid",
  // minmax(0, …): a wide table scrolls inside its card instead of widening the page.
  gridTemplateColumns: "248px minmax(0, 1fr)",
  gridTemplateRows: `${vars.size.topBar} 1fr`,
  gridTemplateAreas: `"top top" "nav main"`,
  minHeight: "100vh",
  "@media": {
    [NARROW]: {
      gridTemplateColumns: "minmax(0, 1fr)",
      gridTemplateRows: `${vars.size.topBar} auto 1fr`,
      gridTemplateAreas: `"top" "nav" "main"`,
    },
  },
});

/**
 * "Skip to main content": out of sight until it has the keyboard, then a button-like link over the
 * top bar's corner. Out of the grid (fixed), so it takes no cell of the layout.
 */
export const skipLink = style({
  position: "fixed",
  top: vars.space.sm,
  left: vars.space.sm,
  zIndex: 20,
  padding: "8px 12px",
  background: vars.color.surface,
  color: vars.color.primary,
  fontWeight: 600,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  boxShadow: vars.shadow.popover,
  selectors: { "&:not(:focus)": HIDDEN_BOX },
});

export const topBar = style({
  gridArea: "top",
  display: "flex",
  alignItems: "center",
  gap: vars.space.md,
  padding: `0 ${vars.space.lg}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  position: "sticky",
  top: 0,
  zIndex: 10,
  // In a 320 px window the bar's usual spacing leaves the profile menu no room.
  "@media": { [NARROW]: { gap: vars.space.sm, padding: `0 ${vars.space.md}` } },
});
export const logo = style({
  fontWeight: 700,
  fontSize: "17px",
  color: vars.color.text,
  textDecoration: "none",
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
});
/**
 * The console's mark (public/logo.svg, which is also the favicon), drawn by the stylesheet from a
 * data address: as an image file it was one more request on a first visit, queued behind the page's
 * scripts, and the login page's load event waited for it (docs/decisions/019-fast-pages.md).
 */
const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#2f54eb"/><path d="M8 11a3 3 0 0 1 3-3h10a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3h-6l-4 4v-4a3 3 0 0 1-3-3z" fill="#fff"/><circle cx="13" cy="14.5" r="1.5" fill="#2f54eb"/><circle cx="19" cy="14.5" r="1.5" fill="#2f54eb"/></svg>';
export const logoMark = style({
  display: "inline-block",
  flex: "none",
  width: "28px",
  height: "28px",
  background: `url("data:image/svg+xml,${encodeURIComponent(MARK_SVG)}") center / contain no-repeat`,
});
export const loginLogoMark = style([logoMark, { width: "40px", height: "40px" }]);
export const clientName = style({
  fontWeight: 600,
  color: vars.color.muted,
  borderLeft: `1px solid ${vars.color.border}`,
  paddingLeft: vars.space.md,
  // A long name (up to 200 characters, perhaps without a space) must not push the profile menu off the bar.
  minWidth: 0,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});
export const spacer = style({ flex: 1 });

// The client's name gives way first; a long user name or address shortens with an ellipsis, to
// at most 40 % of the window, rather than pushing the menu out of it (its full text is the
// button's accessible name).
export const profileMenu = style([popover, { flexShrink: 0, maxWidth: "40vw" }]);
export const profileSummary = style([
  popoverSummary,
  {
    display: "block",
    maxWidth: "100%",
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
    padding: "6px 10px",
    borderRadius: vars.radius.sm,
    border: `1px solid ${vars.color.border}`,
  },
]);
// Never wider than the window, so that, aligned with the menu's right edge, it stays in view.
export const profilePanel = style([
  popoverPanel.alignEnd,
  {
    minWidth: "min(220px, calc(100vw - 2 * 16px))",
    maxWidth: "calc(100vw - 2 * 16px)",
    padding: vars.space.sm,
    display: "grid",
    gap: "2px",
    overflowWrap: "anywhere",
  },
]);
export const menuItem = style({
  display: "block",
  padding: "8px 10px",
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  textDecoration: "none",
  background: "none",
  border: "none",
  font: "inherit",
  textAlign: "left",
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.canvas } },
});

/**
 * The sidebar column runs the whole height of the page (the grid stretches it beside the content),
 * so its background never stops partway down, not in a full-page capture or a print either. Its
 * links sit in `navLinks`, which stays in view while the page scrolls.
 */
export const nav = style({
  gridArea: "nav",
  background: vars.color.surface,
  borderRight: `1px solid ${vars.color.border}`,
  "@media": { [NARROW]: { borderRight: "none", borderBottom: `1px solid ${vars.color.border}` } },
});
export const navLinks = style({
  position: "sticky",
  top: vars.size.topBar,
  maxHeight: `calc(100vh - ${vars.size.topBar})`,
  padding: vars.space.md,
  overflowY: "auto",
  // Above the page it scrolls with it, a third of the window at most.
  "@media": { [NARROW]: { position: "static", maxHeight: "33vh" } },
});
export const navList = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "2px" });
export const navChildren = style({
  listStyle: "none",
  margin: "2px 0 6px 12px",
  padding: 0,
  display: "grid",
  gap: "2px",
});
export const navLink = style({
  display: "block",
  padding: "6px 10px",
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  textDecoration: "none",
  selectors: {
    "&:hover": { background: vars.color.canvas },
    "&[aria-current='page']": { background: vars.color.primarySoft, color: vars.color.primary, fontWeight: 600 },
  },
});

export const main = style({
  gridArea: "main",
  padding: vars.space.lg,
  minWidth: 0,
  // The skip link focuses the whole page's content: a ring round all of it would say nothing.
  selectors: { "&:focus": { outline: "none" } },
  "@media": { [NARROW]: { padding: vars.space.md } },
});

// A client's name may run 200 characters without a space: it wraps rather than widening the page.
export const breadcrumbs = style({ marginBottom: vars.space.md, fontSize: "13px", overflowWrap: "anywhere" });
export const crumbList = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  listStyle: "none",
  margin: 0,
  padding: 0,
});
export const crumb = style({
  selectors: { "&:not(:last-child)::after": { content: "'/'", marginLeft: vars.space.xs, color: vars.color.muted } },
});

export const toaster = style({
  position: "fixed",
  top: vars.space.md,
  right: vars.space.md,
  zIndex: 1000,
  display: "grid",
  gap: vars.space.sm,
  width: "min(380px, calc(100vw - 32px))",
});
export const toast = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "flex-start",
  justifyContent: "space-between",
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  boxShadow: vars.shadow.popover,
  borderLeft: `4px solid ${vars.color.info}`,
});
export const toastSuccess = style({ borderLeftColor: vars.color.success });
export const toastError = style({ borderLeftColor: vars.color.error });

export const skeleton = style({ display: "grid", gap: vars.space.md });
export const skeletonBar = style({
  height: "18px",
  borderRadius: vars.radius.sm,
  background: "linear-gradient(90deg, #e7eaf0 25%, #f3f5f8 37%, #e7eaf0 63%)",
  backgroundSize: "400% 100%",
});

export const skeletonTitle = style([skeletonBar, { width: "30%", height: "28px" }]);
export const skeletonLineShort = style([skeletonBar, { width: "70%" }]);
export const skeletonLineMedium = style([skeletonBar, { width: "85%" }]);

export const hubGrid = style({ display: "flex", flexWrap: "wrap", gap: vars.space.md });
export const hubCard = style({
  minWidth: "250px",
  maxWidth: "400px",
  flex: "1 1 250px",
  display: "block",
  textDecoration: "none",
  color: vars.color.text,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.lg,
  boxShadow: vars.shadow.card,
  selectors: { "a&:hover": { borderColor: vars.color.primary } },
});

export const loginPage = style({ minHeight: "100vh", display: "grid", placeItems: "center", padding: vars.space.lg });
export const loginCard = style({ width: "min(420px, 100%)", display: "grid", gap: vars.space.md });
