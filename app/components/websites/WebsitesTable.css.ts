import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import * as ui from "~/styles/ui.css";

/** A row the required check (or the API) refused: flagged light red. */
export const rowFlagged = style({});
globalStyle(`${rowFlagged} > td`, { background: vars.color.invalid });

export const cellInput = style({
  width: "100%",
  minWidth: "8em",
  selectors: {
    "&[readonly]": { background: "transparent", borderColor: "transparent", paddingLeft: 0 },
    "&:disabled": { background: vars.color.canvas, color: vars.color.muted, cursor: "not-allowed" },
  },
});
export const urlInput = style({ minWidth: "14em" });
/** A scan mode's select is as wide as its longest choice ("full_website"), never cut. */
export const selectInput = style({ width: "auto", minWidth: 0 });

/** A value that differs from what was loaded: light blue (an invalid one stays red, see ui.input). */
export const changed = style({
  selectors: { "&:not([aria-invalid='true'])": { background: vars.color.changed, borderColor: vars.color.info } },
});

export const urlCell = style({ display: "flex", alignItems: "center", gap: vars.space.sm });

/** The red dot of a website with sitemap differences awaiting review. */
export const diffDot = style({
  flex: "none",
  display: "inline-block",
  width: "10px",
  height: "10px",
  borderRadius: "50%",
  background: vars.color.error,
  cursor: "help",
});

export const tags = style({
  border: `1px solid transparent`,
  borderRadius: vars.radius.sm,
  margin: 0,
  padding: `2px ${vars.space.xs}`,
  display: "grid",
  gap: "2px",
  minWidth: "9em",
});
export const tagsChanged = style({ background: vars.color.changed, borderColor: vars.color.info });
export const tagsInvalid = style({ borderColor: vars.color.error });
export const tagOption = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.xs,
  whiteSpace: "nowrap",
  cursor: "pointer",
});

export const statusCell = style({ whiteSpace: "nowrap", paddingTop: "12px" });
/** The last refresh's outcome under the status: it wraps, so the columns after it stay on screen. */
export const refreshSummary = style({
  whiteSpace: "normal",
  maxWidth: "14em",
  fontSize: "12px",
  margin: `${vars.space.xs} 0 0`,
});
export const lastError = style({
  color: vars.color.error,
  fontSize: "12px",
  margin: `${vars.space.xs} 0 0`,
  whiteSpace: "normal",
  maxWidth: "14em",
});
export const addedBy = style({ whiteSpace: "nowrap", color: vars.color.muted, paddingTop: "12px" });
export const actionsCell = style({ whiteSpace: "nowrap", paddingTop: "10px" });

/** The `<details>` menus (row menu, status filter): a summary button and a list floating over the page. */
export const menu = ui.popover;
export const menuSummary = ui.popoverSummary;
const menuListLook = { minWidth: "190px", padding: vars.space.xs, listStyle: "none" } as const;
export const menuList = style([ui.popoverPanel.alignEnd, menuListLook]);
export const menuListStart = style([ui.popoverPanel.alignStart, menuListLook]);
export const menuItem = style({
  display: "flex",
  justifyContent: "space-between",
  gap: vars.space.md,
  width: "100%",
  padding: `6px ${vars.space.sm}`,
  border: "none",
  background: "none",
  font: "inherit",
  color: vars.color.text,
  textAlign: "left",
  textDecoration: "none",
  borderRadius: vars.radius.sm,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled), &:focus-visible": { background: vars.color.primarySoft },
    "&:disabled": { color: vars.color.muted, cursor: "not-allowed" },
  },
});
export const count = style({ color: vars.color.muted, fontVariantNumeric: "tabular-nums" });

export const toolbar = style({
  display: "flex",
  gap: vars.space.md,
  alignItems: "center",
  flexWrap: "wrap",
  marginBottom: vars.space.md,
});
// In a 320 px window the box takes the row and Search goes under it, rather than past the window's edge.
export const search = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, alignItems: "center" });
export const searchInput = style({ minWidth: "min(18em, 100%)" });
export const footer = style({
  display: "flex",
  gap: vars.space.lg,
  alignItems: "center",
  flexWrap: "wrap",
  marginTop: vars.space.md,
});
export const pageSizes = style({ display: "flex", gap: vars.space.sm, alignItems: "center" });
export const currentSize = style({ fontWeight: 700 });
