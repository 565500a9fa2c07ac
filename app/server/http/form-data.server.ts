import { IMAGE_MAX_BYTES } from "@contract/values/files";

/**
 * The one way console actions read what a browser posted. `request.formData()` reads a body of any
 * size and hands it to a parser that trusts every field name: `x[30000000]=1` makes conform build a
 * 30-million-slot array, a body that is not a form throws (a 500). Here the body is bounded before
 * it is read, only forms are parsed, and the names are checked before anything builds from them.
 */

/** A console form is a few kilobytes; a megabyte is far more than any screen posts. */
export const FORM_MAX_BYTES = 1024 * 1024;
/**
 * Forms that carry images (logos, avatars), which read each image with `maxFileBytes` at the API's
 * 2 MB: at most three are kept, yet an image past the limit is read to its end, so that the form
 * comes back with it said beside its field and nothing typed lost, with or without JavaScript.
 * What is kept stays under five times the limit; what is read may reach what the server would read
 * and drop after a 413 anyway (lingering-close.server.ts), which takes the photographs people choose
 * by mistake. Past that, the body is not read on (a 413).
 */
export const FORM_WITH_IMAGES_MAX_BYTES = 5 * IMAGE_MAX_BYTES + FORM_MAX_BYTES;
export const FORM_WITH_IMAGES_MAX_READ_BYTES = 64 * 1024 * 1024;
/** How the forms that carry images are read (the agent form, the client form, Appearance). */
export const FORM_WITH_IMAGES: FormLimits = {
  maxBytes: FORM_WITH_IMAGES_MAX_BYTES,
  maxFileBytes: IMAGE_MAX_BYTES,
  maxReadBytes: FORM_WITH_IMAGES_MAX_READ_BYTES,
};
/** Far more rows than any screen shows (tables page at most 100 rows; Users at most a few hundred). */
export const FORM_MAX_ROW_INDEX = 1_000;
const MAX_FIELDS = 10_000;
const MAX_NAME_LENGTH = 200;

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
// Field names come from our own forms: letters, digits, dots, brackets and a few separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const ROW_INDEX = /\[(\d*)\]/g;

export interface FormLimits {
  /** Bytes of the whole body (uploads pass their own, larger limit). */
  maxBytes?: number;
  /** The largest row index a field name may carry (`rows[12].name`). */
  maxRowIndex?: number;
  /**
   * Bytes of any one file of a multipart form. A file past it is read to its end but not kept: it
   * is left out of the form and `filesPastLimit` names it, so that the action can say so beside its
   * field and answer with everything else the form held. `maxBytes` still bounds what is kept.
   */
  maxFileBytes?: number;
  /**
   * With `maxFileBytes`, the bytes read at most, files left out included (`maxBytes` when not
   * given): past it, a 413 without reading on.
   */
  maxReadBytes?: number;
}

function refusal(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

const tooLarge = (maxBytes: number) =>
  refusal(
    413,
    `This form is larger than ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / (1024 * 1024))} MB` : `${Math.round(maxBytes / 1024)} KB`}: send less at once.`,
  );

/**
 * The body's chunks as they come, or a 413 as soon as it grows past `maxBytes` (the rest is never
 * read). A reader that stops early (a refusal of its own) leaves the body as a 413 does.
 */
async function* boundedChunks(request: Request, maxBytes: number): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= maxBytes)) throw tooLarge(maxBytes);
  if (!request.body) return;
  const reader = (request.body as ReadableStream<Uint8Array<ArrayBuffer>>).getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes);
      yield value;
    }
  } finally {
    // Not cancelled: cancelling destroys the request and with it the connection, so the client
    // would get a reset in place of the 413. The server reads the rest and drops it once the
    // answer is out (lingering-close.server.ts).
    reader.releaseLock();
  }
}

/** The body's bytes, or a 413 as soon as it grows past `maxBytes` (the rest is never read). */
async function readBoundedBody(request: Request, maxBytes: number): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of boundedChunks(request, maxBytes)) chunks.push(chunk);
  return new Blob(chunks);
}

const unreadable = () => refusal(400, "This form could not be read. Reload the page and try again.");

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
const BOUNDARY = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i;
/** A part that carries a file: its Content-Disposition gives a file name. */
const FILE_PART = /^content-disposition:[^\r\n]*;\s*filename\*?=/im;
/** Far more than the headers a browser gives one part (a name, a file name, a type). */
const MAX_PART_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n", "latin1");
const HEADERS_END = Buffer.from("\r\n\r\n", "latin1");

/** A file a form carried past its limit: counted to its end, its bytes not kept. */
export interface FilePastLimit {
  /** The form field that carried it. */
  field: string;
  /** The file's name as chosen. */
  fileName: string;
  /** Its size as sent. */
  bytes: number;
}

/**
 * A multipart body read part by part as it comes, each file's bytes kept only up to `maxFileBytes`:
 * a file past it is counted to its end and kept empty. Answers the body again (every part in
 * order, the headers as sent) for the platform's parser, and which parts (by their place) were
 * left empty, with their sizes. A 413 once what is kept passes `maxBytes` or what is read passes
 * `maxReadBytes`.
 */
async function readMultipartKeepingFilesUpTo(
  request: Request,
  boundary: string,
  { maxBytes, maxReadBytes, maxFileBytes }: { maxBytes: number; maxReadBytes: number; maxFileBytes: number },
): Promise<{ body: Blob; leftEmpty: Map<number, number>; parts: number }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  const opening = Buffer.from(`--${boundary}\r\n`, "latin1");
  const out: Uint8Array[] = [];
  const leftEmpty = new Map<number, number>();
  let parts = 0;
  /** Bytes of the finished parts kept, their headers included. */
  let kept = 0;
  let part = { chunks: [] as Uint8Array[], bytes: 0, isFile: false };
  // As if a line break came before the body: its first delimiter is then found as every other is.
  let pending: Buffer = Buffer.from(CRLF);
  // Cast, not annotated: only `step` moves it on, and TypeScript would otherwise take it to stay "preamble".
  let state = "preamble" as "preamble" | "delimited" | "headers" | "content" | "closed";

  const keep = (bytes: Uint8Array) => {
    part.bytes += bytes.byteLength;
    if (part.isFile && part.bytes > maxFileBytes) {
      part.chunks = [];
      leftEmpty.set(parts, part.bytes);
      return;
    }
    part.chunks.push(bytes);
    if (kept + part.bytes > maxBytes) throw tooLarge(maxBytes);
  };
  /** Reads what `pending` holds as far as it can; false when it needs more of the body. */
  const step = (): boolean => {
    switch (state) {
      case "preamble": {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          pending = pending.subarray(Math.max(0, pending.length - delimiter.length + 1));
          return false;
        }
        pending = pending.subarray(at + delimiter.length);
        state = "delimited";
        return true;
      }
      case "delimited": {
        // A delimiter is followed by "--" (the body's end) or by spaces and a line break (a part).
        if (pending.length < 2) return false;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = "closed";
          return false;
        }
        const lineEnd = pending.indexOf(CRLF);
        if (lineEnd < 0) {
          if (pending.length > MAX_PART_HEADER_BYTES) throw unreadable();
          return false;
        }
        if (!/^[ \t]*$/.test(pending.toString("latin1", 0, lineEnd))) throw unreadable();
        // The line break stays: a part without headers then ends its headers at once.
        pending = pending.subarray(lineEnd);
        state = "headers";
        return true;
      }
      case "headers": {
        const end = pending.indexOf(HEADERS_END);
        if (end < 0) {
          if (pending.length > MAX_PART_HEADER_BYTES) throw unreadable();
          return false;
        }
        const headers = Buffer.from(pending.subarray(CRLF.length, Math.max(end, CRLF.length)));
        out.push(opening, headers, HEADERS_END);
        kept += opening.length + headers.length + HEADERS_END.length;
        part = { chunks: [], bytes: 0, isFile: FILE_PART.test(headers.toString("latin1")) };
        pending = pending.subarray(end + HEADERS_END.length);
        state = "content";
        return true;
      }
      case "content": {
        const at = pending.indexOf(delimiter);
        // Without a delimiter, all but its length less one byte is content whatever comes next.
        const content = at >= 0 ? at : Math.max(0, pending.length - delimiter.length + 1);
        if (content > 0) keep(pending.subarray(0, content));
        pending = pending.subarray(content);
        if (at < 0) return false;
        out.push(...part.chunks, CRLF);
        if (!leftEmpty.has(parts)) kept += part.bytes;
        parts += 1;
        pending = pending.subarray(delimiter.length);
        state = "delimited";
        return true;
      }
      case "closed":
        pending = Buffer.alloc(0);
        return false;
    }
  };

  for await (const chunk of boundedChunks(request, maxReadBytes)) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
    while (step());
  }
  if (state !== "closed") throw unreadable();
  out.push(Buffer.from(`--${boundary}--\r\n`, "latin1"));
  return { body: new Blob(out as Uint8Array<ArrayBuffer>[]), leftEmpty, parts };
}

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** A % that does not start an escape stays itself, as form parsing reads it. */
const LONE_PERCENT = /%(?![0-9a-f]{2})/gi;

/**
 * Whether an urlencoded body's names and values are UTF-8 once unescaped. Form parsing turns each
 * bad byte into U+FFFD, which the API would store as typed; browsers never send such bytes, but
 * a script can.
 */
function isUtf8Form(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return false;
  }
  if (!text.includes("%")) return true;
  try {
    for (const part of text.split(/[&=]/)) decodeURIComponent(part.replace(LONE_PERCENT, "%25"));
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a field's name, or null: names build the shape conform parses into. */
function nameProblem(name: string, maxRowIndex: number): string | null {
  if (name.length > MAX_NAME_LENGTH || CONTROL.test(name)) return "This form has a field the console does not send.";
  for (const [, digits] of name.matchAll(ROW_INDEX)) {
    if (digits.length > 9 || Number(digits) > maxRowIndex)
      return `This form names row ${digits.length > 12 ? `${digits.slice(0, 12)}…` : digits}, more rows than this screen holds.`;
  }
  return null;
}

/**
 * Reads a posted form with every bound applied first. Throws a Response a route's error boundary
 * (or a fetcher) shows: 415 when the body is not a form, 413 when it is too large, 400 when it
 * cannot be parsed or names a field no screen could have sent.
 */
export async function readForm(request: Request, limits: FormLimits = {}): Promise<FormData> {
  const read = formsRead.get(request);
  if (read) return read;
  const maxBytes = limits.maxBytes ?? FORM_MAX_BYTES;
  const maxRowIndex = limits.maxRowIndex ?? FORM_MAX_ROW_INDEX;
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) throw refusal(415, "Send this form from the console's page (as a form).");
  let body: Blob;
  let leftEmpty = new Map<number, number>();
  let parts: number | null = null;
  if (limits.maxFileBytes !== undefined && MULTIPART.test(type)) {
    const boundary = BOUNDARY.exec(type);
    if (!boundary) throw unreadable();
    ({ body, leftEmpty, parts } = await readMultipartKeepingFilesUpTo(request, boundary[1] ?? boundary[2], {
      maxBytes,
      maxReadBytes: Math.max(maxBytes, limits.maxReadBytes ?? maxBytes),
      maxFileBytes: limits.maxFileBytes,
    }));
  } else body = await readBoundedBody(request, maxBytes);
  if (URLENCODED.test(type) && !isUtf8Form(new Uint8Array(await body.arrayBuffer())))
    throw refusal(400, "This form holds text that is not UTF-8. Reload the page and try again.");
  let form: FormData;
  try {
    form = await new Request(request.url, { method: "POST", headers: { "content-type": type }, body }).formData();
  } catch {
    throw unreadable();
  }
  if (parts !== null) form = withoutFilesPastLimit(form, parts, leftEmpty);
  let fields = 0;
  for (const name of form.keys()) {
    if (++fields > MAX_FIELDS) throw refusal(400, "This form has more fields than any screen sends.");
    const problem = nameProblem(name, maxRowIndex);
    if (problem) throw refusal(400, problem);
  }
  formsRead.set(request, form);
  return form;
}

/** The files each form read with `maxFileBytes` left out, as too large. */
const filesLeftOut = new WeakMap<FormData, FilePastLimit[]>();

/** The files past `maxFileBytes` that `readForm` left out of this form (none when it was read without one). */
export const filesPastLimit = (form: FormData): readonly FilePastLimit[] => filesLeftOut.get(form) ?? [];

/** The form without the parts read empty as too large, which `filesPastLimit` then names. */
function withoutFilesPastLimit(form: FormData, parts: number, leftEmpty: Map<number, number>): FormData {
  const entries = [...form];
  // The platform's parser makes one entry of each part, in order; anything else is no form of ours.
  if (entries.length !== parts) throw unreadable();
  if (!leftEmpty.size) return form;
  const kept = new FormData();
  const leftOut: FilePastLimit[] = [];
  entries.forEach(([name, value], index) => {
    const bytes = leftEmpty.get(index);
    if (bytes === undefined) kept.append(name, value);
    else leftOut.push({ field: name, fileName: typeof value === "string" ? "" : value.name, bytes });
  });
  filesLeftOut.set(kept, leftOut);
  return kept;
}

/** Each request's form once read: its body can be read only once, and the API client may need it after the action. */
const formsRead = new WeakMap<Request, FormData>();

/**
 * The text fields a browser posted, to offer them back when the post could not be carried out
 * (files are chosen again); null when the body is not a form the console reads.
 */
export async function postedFields(request: Request): Promise<[string, string][] | null> {
  try {
    // A clone when the action has not read it: the action may still read it, and with its own limits.
    const form = formsRead.get(request) ?? (request.bodyUsed ? null : await readForm(request.clone()));
    if (!form) return null;
    return [...form].flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : []));
  } catch {
    return null;
  }
}

/** The JSON a console page's own script posts (the upload steps): a list of file names at most. */
export const JSON_MAX_BYTES = 64 * 1024;
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a JSON body a page's script posted, bounded as forms are: 415 when it is not JSON, 413
 * past `maxBytes` (the rest is never parsed), 400 when it is not UTF-8 JSON. What it holds is the
 * caller's to check.
 */
export async function readJson(request: Request, maxBytes = JSON_MAX_BYTES): Promise<unknown> {
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? ""))
    throw refusal(415, "Send this from the console's page (as JSON).");
  const body = await readBoundedBody(request, maxBytes);
  try {
    return JSON.parse(utf8.decode(await body.arrayBuffer()));
  } catch {
    throw refusal(400, "This request could not be read. Reload the page and try again.");
  }
}
