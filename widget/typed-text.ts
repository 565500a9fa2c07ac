/**
 * What a visitor typed, as the chat call takes it (its input guard refuses control characters):
 * a vertical tab, form feed or next-line pasted from a document is a space, and other control
 * characters, which show as nothing, go. Without this the refused message comes back into the
 * box with the same invisible character, and sending it again fails the same way.
 */
export function typedText(value: string) {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u000b\u000c\u0085]/g, " ")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, "")
  );
}
