import { ALL_APPEARANCE_FIELDS, APPEARANCE_IMAGE_PATH } from "@contract";
import type { ApiDeps } from "../deps";
import type { AppExportFile } from "./format";

/** An appearance image's address: `/storage/` and its key, `public/appearance/{client id}/{name}`. */
const IMAGE_KEY = /^\/storage\/(public\/appearance\/(\d+)\/([^/]+))$/;
const IMAGE_FIELDS = ALL_APPEARANCE_FIELDS.filter((field) => field.type === "image").map((f) => f.internalName);

/** A stored image the import copies into the client's own folder once it is committed. */
export interface ImageCopy {
  from: string;
  to: string;
}

/**
 * The file's appearances with their images in the client's own folder. Images are stored under
 * their client's id, and a client shows, saves and pushes only its own: an export of another
 * client (a copy under a new url_code, or a client deleted and imported back under a new id) named
 * that client's folder, so the imported client showed its id in every image's address, depended
 * on its files, and could not push. Each such image is named in the client's folder under the same
 * file name (importing again changes nothing), to be copied there (`copies`); one whose file is
 * gone from both folders is left out, as if none was chosen. Images of the client's own folder stay.
 */
export async function withOwnImages(appId: number, file: AppExportFile, storage: ApiDeps["storage"]) {
  const copies: ImageCopy[] = [];
  const appearances = [];
  for (const look of file.appearances) {
    const values = { ...look.values };
    for (const name of IMAGE_FIELDS) {
      const value = values[name];
      const match = typeof value === "string" && APPEARANCE_IMAGE_PATH.test(value) ? IMAGE_KEY.exec(value) : null;
      if (!match || Number(match[2]) === appId) continue;
      const to = `public/appearance/${appId}/${match[3]}`;
      if ((await storage.head(to)) || (await storage.head(match[1]))) {
        values[name] = `/storage/${to}`;
        copies.push({ from: match[1], to });
      } else values[name] = "";
    }
    appearances.push({ ...look, values });
  }
  return { file: { ...file, appearances }, copies };
}

/** Copies the images an import named in the client's folder (one already there stays as it is). */
export async function copyImages(copies: ImageCopy[], storage: ApiDeps["storage"]) {
  for (const { from, to } of copies) {
    if (await storage.head(to)) continue;
    const bytes = await storage.get(from);
    if (bytes) await storage.put(to, new Uint8Array(bytes));
  }
}
