import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const table = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.md });
globalStyle(`${table} td`, { verticalAlign: "middle" });
export const fileName = style({ overflowWrap: "anywhere", fontFamily: vars.font.mono, fontSize: "13px" });
export const numeric = style({ whiteSpace: "nowrap" });
export const actionCell = style({ width: "1%", whiteSpace: "nowrap" });
export const empty = style({ textAlign: "center", color: vars.color.muted, padding: vars.space.lg });
