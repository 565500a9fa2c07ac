import { describe, expect, it } from "vitest";
import { FORM_MAX_BYTES, readForm } from "./form-data.server";

const post = (body: BodyInit | null, contentType: string | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/form", {
    method: "POST",
    body,
    headers: { ...(contentType ? { "content-type": contentType } : {}), ...headers },
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);

const urlencoded = (body: string) => post(body, "application/x-www-form-urlencoded");

async function refusalOf(read: Promise<unknown>) {
  try {
    await read;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, message: await thrown.text() };
    throw thrown;
  }
  throw new Error("the form was read");
}

describe("readForm", () => {
  it("reads an ordinary form, rows included", async () => {
    const form = await readForm(
      urlencoded("intent=save&users[0].email=a%40example.com&users[1].email=b%40example.com"),
    );
    expect(form.get("intent")).toBe("save");
    expect(form.getAll("users[1].email")).toEqual(["b@example.com"]);
  });

  it("refuses a row index no screen could send before anything is built from it", async () => {
    for (const name of [
      "x[30000000]",
      "users[99999999].id",
      "rows[4294967296].name",
      "a[1001]",
      `a[${"9".repeat(60)}]`,
    ]) {
      const refusal = await refusalOf(readForm(urlencoded(`intent=dev&${encodeURIComponent(name)}=1`)));
      expect(refusal.status, name).toBe(400);
      expect(refusal.message).toMatch(/more rows than this screen holds/);
    }
    expect((await readForm(urlencoded("a[1000]=1"))).get("a[1000]")).toBe("1");
    expect(await readForm(urlencoded("a[3]=1"), { maxRowIndex: 2 }).catch((r: Response) => r.status)).toBe(400);
  });

  it("refuses field names with control characters, and absurd numbers of fields", async () => {
    expect((await refusalOf(readForm(urlencoded("a%00b=1")))).status).toBe(400);
    expect((await refusalOf(readForm(urlencoded(`${"n".repeat(201)}=1`)))).status).toBe(400);
    const many = Array.from({ length: 10_001 }, (_, i) => `f${i}=1`).join("&");
    expect((await refusalOf(readForm(urlencoded(many)))).status).toBe(400);
  });

  it("refuses text that is not UTF-8 once unescaped, rather than have U+FFFD saved in its place", async () => {
    for (const body of ["question=bad%FF%FEtext", "name=caf%C3", "a%FF=1"]) {
      const refusal = await refusalOf(readForm(urlencoded(body)));
      expect(refusal, body).toEqual({
        status: 400,
        message: "This form holds text that is not UTF-8. Reload the page and try again.",
      });
    }
    const raw = post(new Uint8Array([0x61, 0x3d, 0xff]), "application/x-www-form-urlencoded");
    expect((await refusalOf(readForm(raw))).status).toBe(400);
    // Characters of any script, and a lone % as typed, are read as sent.
    const form = await readForm(urlencoded("name=caf%C3%A9+%E5%AD%A6&rate=100%&plus=a%2Bb"));
    expect(Object.fromEntries(form)).toEqual({ name: "café 学", rate: "100%", plus: "a+b" });
  });

  it("answers 415 to a body that is not a form", async () => {
    for (const type of [
      "text/plain",
      "application/json",
      "application/octet-stream",
      null,
      "multipart/mixed; boundary=x",
    ]) {
      const refusal = await refusalOf(readForm(post('{"a":1}', type)));
      expect(refusal.status, String(type)).toBe(415);
    }
  });

  it("answers 400 to a multipart body that cannot be parsed", async () => {
    expect((await refusalOf(readForm(post("--x\r\nnot a part", "multipart/form-data; boundary=x")))).status).toBe(400);
    expect((await refusalOf(readForm(post("garbage", "multipart/form-data")))).status).toBe(400);
  });

  it("answers 413 from the declared length without reading the body", async () => {
    let pulls = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode("a=1&"));
      },
    });
    const refusal = await refusalOf(
      readForm(post(body, "application/x-www-form-urlencoded", { "content-length": String(64 * 1024 * 1024) })),
    );
    expect(refusal.status).toBe(413);
    expect(refusal.message).toMatch(/larger than 1 MB/);
    expect(pulls).toBeLessThanOrEqual(1); // a stream may be primed once; nothing is read from it
  });

  it("stops reading a body without a length as soon as it passes the limit, without cancelling it", async () => {
    let sent = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode(`a=${"x".repeat(64 * 1024)}&`);
    const body = new ReadableStream({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
      cancel: () => void (cancelled = true),
    });
    const refusal = await refusalOf(readForm(post(body, "application/x-www-form-urlencoded")));
    expect(refusal.status).toBe(413);
    expect(sent).toBeLessThan(FORM_MAX_BYTES + 4 * chunk.byteLength);
    // Cancelling a request's body destroys its connection before the 413 can be sent.
    expect(cancelled).toBe(false);
  });

  it("lets an upload pass its own, larger limit", async () => {
    const data = new FormData();
    data.append("files", new File([new Uint8Array(FORM_MAX_BYTES + 10)], "a.pdf"));
    const request = new Request("http://localhost/upload", { method: "POST", body: data });
    const form = await readForm(request, { maxBytes: 4 * FORM_MAX_BYTES });
    expect((form.get("files") as File).size).toBe(FORM_MAX_BYTES + 10);
  });
});
