import { describe, expect, it } from "vitest";
import { FORM_MAX_BYTES, filesPastLimit, readForm } from "./form-data.server";

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

/** A browser's multipart body for `form`, sent in chunks of `chunkBytes` as a slow line would. */
async function multipartInChunks(form: FormData, chunkBytes: number) {
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += chunkBytes)));
    },
  });
  return post(body, encoded.headers.get("content-type"));
}

const entriesOf = async (form: FormData) =>
  Promise.all(
    [...form].map(async ([name, value]) =>
      typeof value === "string"
        ? [name, value]
        : [name, value.name, value.type, [...new Uint8Array(await value.arrayBuffer())]],
    ),
  );

describe("readForm with a limit for each file", () => {
  const image = (bytes: number, name = "logo.png") =>
    new File(
      [Uint8Array.from({ length: bytes }, (_, i) => (i % 7 === 0 ? 0x2d : i % 5 === 0 ? 0x0d : i % 251))],
      name,
      {
        type: "image/png",
      },
    );

  it("leaves out a file past its limit and names it, keeping every other field and file as sent", async () => {
    const form = new FormData();
    form.append("name", "Café \r\n--agent");
    form.append("logo", image(5_000, "poster; final=1.png"));
    form.append("icon", image(1_000));
    form.append("empty", new File([], "", { type: "application/octet-stream" }));
    form.append("url", "https://x.example");
    const read = await readForm(await multipartInChunks(form, 97), { maxBytes: 64 * 1024, maxFileBytes: 2_000 });
    expect(read.has("logo")).toBe(false);
    expect(filesPastLimit(read)).toEqual([{ field: "logo", fileName: "poster; final=1.png", bytes: 5_000 }]);
    const whole = await new Request("http://localhost/", { method: "POST", body: form }).formData();
    whole.delete("logo");
    expect(await entriesOf(read)).toEqual(await entriesOf(whole));
  });

  it("reads a form whatever its chunks, as the platform's parser does when nothing is past the limit", async () => {
    const form = new FormData();
    form.append("a", "");
    form.append("ünïcode[0].name", "値");
    form.append("file", image(4_096));
    form.append("files", image(0, "blank.svg"));
    form.append("b", "line one\r\nline two");
    const whole = await new Request("http://localhost/", { method: "POST", body: form }).formData();
    for (const chunkBytes of [1, 2, 3, 17, 70, 4_096, 1 << 20]) {
      const read = await readForm(await multipartInChunks(form, chunkBytes), { maxFileBytes: 4_096 });
      expect(await entriesOf(read), `chunks of ${chunkBytes}`).toEqual(await entriesOf(whole));
      expect(filesPastLimit(read)).toEqual([]);
    }
  });

  it("still bounds the whole body: past it, a 413 without reading on", async () => {
    const form = new FormData();
    form.append("logo", image(300_000));
    const refusal = await refusalOf(
      readForm(await multipartInChunks(form, 4_096), { maxBytes: 100_000, maxFileBytes: 2_000 }),
    );
    expect(refusal.status).toBe(413);
  });

  it("reads on past the kept bound up to maxReadBytes while what is past is a file left out", async () => {
    const form = new FormData();
    form.append("name", "Typed before the photo");
    form.append("logo", image(300_000, "photo.png"));
    form.append("url", "https://typed.after.example");
    const limits = { maxBytes: 100_000, maxFileBytes: 2_000, maxReadBytes: 400_000 };
    const read = await readForm(await multipartInChunks(form, 4_096), limits);
    expect(read.get("name")).toBe("Typed before the photo");
    expect(read.get("url")).toBe("https://typed.after.example");
    expect(filesPastLimit(read)).toEqual([{ field: "logo", fileName: "photo.png", bytes: 300_000 }]);
    // Past what may be read: a 413, the rest not read.
    const larger = new FormData();
    larger.append("logo", image(500_000, "photo.png"));
    expect((await refusalOf(readForm(await multipartInChunks(larger, 4_096), limits))).status).toBe(413);
  });

  it("still bounds what is kept when it may read more: files each under their limit, past the form's bound", async () => {
    const form = new FormData();
    for (let i = 0; i < 60; i++) form.append(`icon${i}`, image(1_900));
    const limits = { maxBytes: 100_000, maxFileBytes: 2_000, maxReadBytes: 1_000_000 };
    expect((await refusalOf(readForm(await multipartInChunks(form, 4_096), limits))).status).toBe(413);
    // Text counts as kept too.
    const text = new FormData();
    text.append("notes", "x".repeat(150_000));
    expect((await refusalOf(readForm(await multipartInChunks(text, 4_096), limits))).status).toBe(413);
  });

  it("answers 400 to a multipart body that cannot be parsed or is cut short", async () => {
    const limits = { maxFileBytes: 1_000 };
    for (const [body, type] of [
      ["--x\r\nnot a part", "multipart/form-data; boundary=x"],
      ["garbage", "multipart/form-data"],
      ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n', "multipart/form-data; boundary=x"],
      ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz\r\n', "multipart/form-data; boundary=x"],
      // No delimiter at all: not an empty form, as the platform's parser also refuses it.
      ["garbage", "multipart/form-data; boundary=x"],
      ["", "multipart/form-data; boundary=x"],
    ])
      expect((await refusalOf(readForm(post(body, type), limits))).status, body).toBe(400);
    const whole = '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n';
    expect((await readForm(post(whole, "multipart/form-data; boundary=x"), limits)).get("a")).toBe("1");
    // The same body, its closing delimiter split between two reads: a line may cut it anywhere.
    const split = whole.indexOf("--\r\n", 10) + 1;
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of [whole.slice(0, split), whole.slice(split)])
          controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    });
    expect((await readForm(post(cut, "multipart/form-data; boundary=x"), limits)).get("a")).toBe("1");
  });
});
