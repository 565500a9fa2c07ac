import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The server-rendered question before something goes for good: framed in the error colour. */
export const confirm = style({
  border: `1px solid ${vars.color.error}`,
  background: vars.color.errorSoft,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
});
export const confirmText = style({ margin: `0 0 ${vars.space.sm}`, fontWeight: 600 });
globalStyle(`${confirm} > :last-child`, { marginBottom: 0 });
