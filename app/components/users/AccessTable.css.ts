import { globalStyle, style } from "@vanilla-extract/css";
import { confirmFrame, confirmQuestion } from "~/styles/confirm-frame";

/**
 * The question a save without JavaScript asks before it takes someone's access away, framed as
 * every such question is (ConfirmStep's), from a sheet of its own: importing ConfirmStep's would
 * move it into a script chunk of its own that every screen showing ConfirmStep then loads too.
 */
export const removalQuestion = style(confirmFrame);
export const removalQuestionText = style(confirmQuestion);
globalStyle(`${removalQuestion} > :last-child`, { marginBottom: 0 });
