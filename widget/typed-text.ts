import { REFUSED_CHARACTERS } from "../contract/text";

/**
 * What a visitor typed, as the chat call takes it (its input guard refuses control characters):
 * a vertical tab, form feed or next-line pasted from a document is a space, and other control
 * characters and direction controls (contract/text.ts), which show as nothing, go. Without this the refused message comes back into the
 * box with the same invisible character, and sending it again fails the same way.
 */
export function typedText(value: string) {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u000b\u000c\u0085]/g, " ")
      .replace(REFUSED_CHARACTERS, "")
  );
}
