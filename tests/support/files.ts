/** A real 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);
export const SVG_TEXT = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#2f54eb"/></svg>`;

export function multipart(files: { field: string; name: string; bytes: Uint8Array | string; type?: string }[]) {
  const form = new FormData();
  for (const file of files)
    form.append(
      file.field,
      new File([file.bytes as BlobPart], file.name, { type: file.type ?? "application/octet-stream" }),
    );
  return form;
}
