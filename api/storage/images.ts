import { badRequest } from "../http/errors";
import { svgHasActiveContent } from "./svg-content";

export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
/** The spec's accepted logo types; '.img' is a generic image and may hold PNG, JPEG, GIF or WebP. */
export const LOGO_EXTENSIONS = [".svg", ".png", ".img"] as const;

type Sniffed = "png" | "jpg" | "gif" | "webp" | "svg" | null;

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** What the bytes are, whatever the file is called. */
export function sniffImage(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "");
  const withoutProlog = head.replace(
    /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*/i,
    "",
  );
  if (/^<svg[\s>]/i.test(withoutProlog)) return "svg";
  return null;
}

/**
 * Checks an uploaded logo: an allowed extension, content that really is an image of that kind,
 * at most 2 MB, and no active content inside SVGs. Returns the extension to store it under.
 * `checkedAs` is the name whose extension is checked; messages name the file as it was chosen.
 */
export function validateLogo(fileName: string, bytes: Uint8Array, checkedAs = fileName): string {
  const extension = (/\.[^.]+$/.exec(checkedAs.toLowerCase())?.[0] ?? "") as (typeof LOGO_EXTENSIONS)[number];
  if (!LOGO_EXTENSIONS.includes(extension))
    throw badRequest(`${fileName}: only .svg, .png and .img files are accepted`);
  if (bytes.byteLength === 0) throw badRequest(`${fileName} is empty`);
  if (bytes.byteLength > MAX_LOGO_BYTES) throw badRequest(`${fileName} is larger than 2 MB`);
  const kind = sniffImage(bytes);
  const fits =
    extension === ".svg" ? kind === "svg" : extension === ".png" ? kind === "png" : kind !== null && kind !== "svg";
  if (!fits)
    throw badRequest(
      `${fileName} does not contain a ${extension === ".img" ? "PNG, JPEG, GIF or WebP" : extension.slice(1).toUpperCase()} image`,
    );
  if (kind === "svg" && svgHasActiveContent(new TextDecoder().decode(bytes)))
    throw badRequest(`${fileName} contains scripts or embedded content, which logos may not`);
  return kind!;
}
