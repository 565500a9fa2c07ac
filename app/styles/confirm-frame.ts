import { vars } from "./theme.css";

/*
 * The look of a question asked before something goes for good, shared by the style sheets that
 * frame one (ConfirmStep.css.ts, and Access Control's removals in AccessTable.css.ts). Plain style
 * objects, read only when the style sheets are built: a screen's script imports the sheet it uses
 * and no other, so that no screen loads a sheet it does not show.
 */

/** The frame, in the error colour. */
export const confirmFrame = {
  border: `1px solid ${vars.color.error}`,
  background: vars.color.errorSoft,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
};

/** The question's words. */
export const confirmQuestion = { margin: `0 0 ${vars.space.sm}`, fontWeight: 600 };
