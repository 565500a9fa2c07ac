import { describe, expect, it } from "vitest";
import { charsetOf, decodeTextFile } from "./text-file";

/*
 * The files below are the bytes other programs write: Node's own encoders (independent of the
 * TextDecoder under test) for UTF-8, UTF-16 LE and Latin-1, and UTF-16 LE byte-swapped for BE.
 */
const CSV = "question,expect_text\r\nOù se trouve la résidence Zoë ?,Élan – “Nord”\r\n";
const LATIN1 = "question,expect_text\r\nOù se trouve la résidence Zoë ?,Élan\r\n";

const withMark = (mark: number[], bytes: Buffer) => new Uint8Array(Buffer.concat([Buffer.from(mark), bytes]));
const utf8 = (text: string, bom = false) => withMark(bom ? [0xef, 0xbb, 0xbf] : [], Buffer.from(text, "utf8"));
const utf16le = (text: string, bom = true) => withMark(bom ? [0xff, 0xfe] : [], Buffer.from(text, "utf16le"));
const utf16be = (text: string) => {
  const bytes = Buffer.from(text, "utf16le");
  bytes.swap16();
  return withMark([0xfe, 0xff], bytes);
};
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
/** What a refusal answers, its message saying `problem`. */
const refusal = (problem: string) => ({ ok: false, message: expect.stringContaining(problem) });

describe("decodeTextFile", () => {
  it("reads UTF-8 with or without its byte order mark, and UTF-16 LE and BE by theirs", () => {
    expect(decodeTextFile(utf8(CSV), "text/csv")).toEqual({ ok: true, text: CSV, encoding: "utf-8" });
    expect(decodeTextFile(utf8(CSV, true), "text/csv")).toEqual({ ok: true, text: CSV, encoding: "utf-8" });
    expect(decodeTextFile(utf16le(CSV), "text/csv")).toEqual({ ok: true, text: CSV, encoding: "utf-16le" });
    expect(decodeTextFile(utf16be(CSV), "")).toEqual({ ok: true, text: CSV, encoding: "utf-16be" });
  });

  it("refuses a file that is not UTF-8 and declares nothing, naming UTF-8, the line and how to save it", () => {
    const decoded = decodeTextFile(latin1(LATIN1), "text/csv");
    expect(decoded).toEqual(refusal("This file is not UTF-8 (line 2 is not)"));
    expect(decoded.ok || decoded.message).toContain("Save it as “CSV UTF-8”");
  });

  it("reads a declared charset: Latin-1 as the Encoding Standard does (Windows-1252), the sender's word before a guess", () => {
    expect(decodeTextFile(latin1(LATIN1), "text/csv; charset=ISO-8859-1")).toEqual({
      ok: true,
      text: LATIN1,
      encoding: "windows-1252",
    });
    const windows1252 = new Uint8Array([...Buffer.from("caf", "latin1"), 0xe9, 0x20, 0x96, 0x20, 0x93, 0x4e, 0x94]);
    expect(decodeTextFile(windows1252, 'text/csv; charset="windows-1252"')).toMatchObject({
      ok: true,
      text: "café – “N”",
    });
    // A byte order mark outranks the header.
    expect(decodeTextFile(utf16le(CSV), "text/csv; charset=iso-8859-1")).toMatchObject({ ok: true, text: CSV });
  });

  it("refuses a charset it cannot read, and bytes that are not what they declare", () => {
    expect(decodeTextFile(utf8(CSV), "text/csv; charset=x-klingon")).toEqual(
      refusal("This file declares the character set “x-klingon”, which the console cannot read."),
    );
    expect(decodeTextFile(latin1(LATIN1), "text/csv; charset=utf-8")).toEqual(
      refusal("This file declares the character set “utf-8” but is not utf-8 text."),
    );
    const brokenUtf16 = new Uint8Array([...utf16le("question\r\nQ?"), 0x3f]);
    expect(decodeTextFile(brokenUtf16, "text/csv")).toEqual(
      refusal("This file starts as UTF-16 LE but is not UTF-16 LE throughout."),
    );
  });

  it("refuses UTF-16 without a byte order mark instead of reading its zero bytes as NUL characters", () => {
    for (const text of [CSV, "question,expect_text\r\nWhen?,10 am\r\n"]) {
      expect(decodeTextFile(utf16le(text, false), "text/csv")).toEqual(
        refusal("This file holds NUL characters, so it is not UTF-8 text"),
      );
    }
    expect(decodeTextFile(latin1("question\r\nWhen\u0000?"), "text/csv; charset=latin1")).toEqual(
      refusal("This file holds NUL characters, so it is not windows-1252 text"),
    );
  });
});

describe("charsetOf", () => {
  it("reads the charset parameter, quoted or not, or null", () => {
    expect(charsetOf("text/html; charset=Shift_JIS")).toBe("Shift_JIS");
    expect(charsetOf('text/csv;CHARSET="iso-8859-1"; header=present')).toBe("iso-8859-1");
    expect(charsetOf("text/csv")).toBeNull();
    expect(charsetOf(null)).toBeNull();
  });
});
