import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const intro = style({ color: vars.color.muted, maxWidth: "72ch", marginTop: 0 });
export const section = style({ marginTop: vars.space.xl });
export const sectionTitle = style({ fontSize: "18px", margin: `0 0 ${vars.space.sm}` });

/** The JSON view: tall enough to read a whole model without a second scroll bar on most. */
export const json = style({ maxHeight: "560px" });

/** The server-rendered questions (import, delete) that work without JavaScript. */
export const question = style({
  border: `1px solid ${vars.color.warning}`,
  background: vars.color.warningSoft,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
  maxWidth: "720px",
});
export const danger = style({ borderColor: vars.color.error, background: vars.color.errorSoft });
// A field name may be a hundred characters without a space: it wraps inside the box.
export const questionText = style({ margin: `0 0 ${vars.space.sm}`, fontWeight: 600, overflowWrap: "anywhere" });
globalStyle(`${question} > :last-child`, { marginBottom: 0 });

export const actionsCell = style({ whiteSpace: "nowrap", paddingTop: "12px", width: "1%" });
export const definitionCell = style({ minWidth: "280px" });

export const progress = style({ width: "240px", verticalAlign: "middle", marginRight: vars.space.sm });
export const status = style({ margin: `${vars.space.sm} 0` });

export const values = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: `2px ${vars.space.sm}`,
  margin: 0,
});
globalStyle(`${values} dt`, { fontWeight: 600 });
export const evidence = style({ color: vars.color.muted, fontSize: "12px" });
export const valueRow = style({ display: "contents" });

/** What a deletion from the table did, above the table (its answer keeps the rows typed, so no redirect and no toast). */
export const done = style({ color: vars.color.success, fontWeight: 600, margin: `0 0 ${vars.space.sm}` });
