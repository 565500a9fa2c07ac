import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import * as ui from "~/styles/ui.css";

export const tableWrap = ui.tableScroll;
/** The last column (a row's actions) stays in view as the table scrolls sideways (ui.lastColumnInView). */
export const table = style([ui.lastColumnInView, { minWidth: "720px" }]);
/** Half the usual space between columns (ui.denseTable). */
export const tableDense = ui.denseTable;

/** A row the required check (or the API) refused: flagged light red. */
export const rowFlagged = style({});
globalStyle(`${rowFlagged} > td`, { background: vars.color.invalid });

/** A row marked for removal: still posted, clearly on its way out. */
export const rowRemoved = style({ opacity: 0.65 });
globalStyle(`${rowRemoved} input[type='email'], ${rowRemoved} input[type='text']`, { textDecoration: "line-through" });

export const cellInput = style({
  width: "100%",
  minWidth: "9em",
  selectors: {
    // An address grows its box as it is typed (its `size` says the same to older browsers).
    "&[type='email']": { minWidth: "16em", width: "auto", fieldSizing: "content" },
    "&[readonly]": { background: "transparent", borderColor: "transparent", paddingLeft: 0 },
    "&:disabled": { background: vars.color.canvas, color: vars.color.muted, cursor: "not-allowed" },
  },
});

/** A value that differs from what was loaded: light blue (an invalid one stays red, see ui.input). */
export const changed = style({
  selectors: { "&:not([aria-invalid='true'])": { background: vars.color.changed, borderColor: vars.color.info } },
});

export const readOnlyValue = style({ display: "inline-block", padding: "7px 0" });
export const dateCell = style({ whiteSpace: "nowrap", color: vars.color.muted, paddingTop: "15px" });
export const actionsCell = style({ whiteSpace: "nowrap", paddingTop: "12px" });
export const removeLabel = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  cursor: "pointer",
});
export const empty = style({ textAlign: "center", color: vars.color.muted });
export const formError = style({ marginBottom: vars.space.md });

/** A multi-line cell: grows with the column, resizes only in height. */
export const cellTextArea = style({ display: "block", resize: "vertical", lineHeight: 1.45, minWidth: "16em" });
export const monospace = style({ fontFamily: vars.font.mono, fontSize: "13px" });

/** A value read as text: long addresses wrap inside the column instead of running out of it. */
export const textValue = style({ display: "inline-block", padding: "7px 0", overflowWrap: "anywhere" });

/** The row's own actions (Edit, Cancel, Remove) side by side. */
export const rowActions = style({ display: "inline-flex", alignItems: "center", gap: vars.space.md });
