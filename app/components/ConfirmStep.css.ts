import { globalStyle, style } from "@vanilla-extract/css";
import { confirmFrame, confirmQuestion } from "~/styles/confirm-frame";

/** The server-rendered question before something goes for good: framed in the error colour. */
export const confirm = style(confirmFrame);
export const confirmText = style(confirmQuestion);
globalStyle(`${confirm} > :last-child`, { marginBottom: 0 });
