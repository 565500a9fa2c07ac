import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const section = style({ marginBottom: vars.space.lg });
export const grid = style({ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))", gap: vars.space.md });
export const wide = style({ gridColumn: "1 / -1" });
export const cellText = style({ maxWidth: "420px", overflowWrap: "anywhere" });
export const inlineForm = style({ display: "inline", margin: 0 });
export const progress = style({ width: "min(320px, 100%)", height: "12px" });
export const answer = style({ whiteSpace: "pre-wrap", maxWidth: "520px", overflowWrap: "anywhere" });
