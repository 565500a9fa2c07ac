import { ALL_APPEARANCE_FIELDS, APPEARANCE_IMAGE_PATH } from "@contract";
import type { ApiDeps } from "../deps";
import type { AppExportFile } from "./format";

/** A stored image's address: `/storage/` and its key, `public/{appearance|agents}/{client id}/{name}`. */
const IMAGE_KEY = /^\/storage\/(public\/(appearance|agents)\/(\d+)\/([0-9a-f-]{36}\.[a-z]+))$/;
const IMAGE_FIELDS = ALL_APPEARANCE_FIELDS.filter((field) => field.type === "image").map((f) => f.internalName);

/** A stored image the import copies into the client's own folder once it is committed. */
export interface ImageCopy {
  from: string;
  to: string;
}

/**
 * The file's widget images and agents' logos in the client's own folders. Both are stored under
 * their client's id, and a client shows, saves and pushes only images of its own: an export of
 * another client (a copy under a new url_code, or a client deleted and imported back under a new
 * id) named that client's folders, so the imported client showed its id in every image's address,
 * depended on its files, and could not push. Each such image is named in the client's folder under
 * the same file name (importing again changes nothing), to be copied there (`copies`); one whose
 * file is gone from both folders is left out, as if none was chosen. The client's own stay.
 */
export async function withOwnImages(appId: number, file: AppExportFile, storage: ApiDeps["storage"]) {
  const copies: ImageCopy[] = [];
  /** The address in this client's folder, `undefined` to keep the value, or null when its file is gone. */
  const own = async (value: unknown) => {
    const match = typeof value === "string" ? IMAGE_KEY.exec(value) : null;
    if (!match || Number(match[3]) === appId) return undefined;
    const to = `public/${match[2]}/${appId}/${match[4]}`;
    if (!(await storage.head(to)) && !(await storage.head(match[1]))) return null;
    copies.push({ from: match[1], to });
    return `/storage/${to}`;
  };
  const appearances = [];
  for (const look of file.appearances) {
    const values = { ...look.values };
    for (const name of IMAGE_FIELDS) {
      if (!(typeof values[name] === "string" && APPEARANCE_IMAGE_PATH.test(values[name]))) continue;
      const moved = await own(values[name]);
      if (moved !== undefined) values[name] = moved ?? "";
    }
    appearances.push({ ...look, values });
  }
  const agents = [];
  for (const agent of file.agents) {
    const moved = await own(agent.logo);
    agents.push(moved === undefined ? agent : { ...agent, logo: moved });
  }
  return { file: { ...file, appearances, agents }, copies };
}

/** Copies the images an import named in the client's folder (one already there stays as it is). */
export async function copyImages(copies: ImageCopy[], storage: ApiDeps["storage"]) {
  for (const { from, to } of copies) {
    if (await storage.head(to)) continue;
    const bytes = await storage.get(from);
    if (bytes) await storage.put(to, new Uint8Array(bytes));
  }
}
