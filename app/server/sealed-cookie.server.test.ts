import { describe, expect, it } from "vitest";
import { createSealedCookie } from "./sealed-cookie.server";

/** Opened cookies are remembered by their value as sent (sealed-cookie.server.ts). */
const cookieHeaderOf = (setCookie: string) => setCookie.split(";")[0];

describe("a sealed cookie opened before", () => {
  it("opens again to an equal value the caller may change without changing the next one", async () => {
    const cookie = createSealedCookie("__session", { secrets: ["first"], path: "/" });
    const header = cookieHeaderOf(await cookie.serialize({ user: { name: "Ada" }, user_token: "t" }));
    const first = await cookie.parse(header);
    expect(first).toEqual({ user: { name: "Ada" }, user_token: "t" });
    first.user.name = "changed";
    expect(await cookie.parse(header)).toEqual({ user: { name: "Ada" }, user_token: "t" });
  });

  it("is refused when altered, and by a cookie of other secrets, however often it was opened", async () => {
    const cookie = createSealedCookie("__session", { secrets: ["first"], path: "/" });
    const header = cookieHeaderOf(await cookie.serialize({ user_token: "t" }));
    await cookie.parse(header);
    const [name, value] = header.split("=");
    const at = Math.floor(value.length / 2);
    const altered = `${name}=${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`;
    expect(await cookie.parse(altered)).toBeNull();
    expect(await createSealedCookie("__session", { secrets: ["second"], path: "/" }).parse(header)).toBeNull();
    // A rotated list still opens what the old first secret sealed.
    expect(await createSealedCookie("__session", { secrets: ["second", "first"], path: "/" }).parse(header)).toEqual({
      user_token: "t",
    });
  });

  it("opens from a header with other cookies around it, the same when remembered; none or an empty one is null", async () => {
    const cookie = createSealedCookie("__session", { secrets: ["first"], path: "/" });
    const header = cookieHeaderOf(await cookie.serialize({ user_token: "t" }));
    for (let round = 0; round < 2; round++) {
      expect(await cookie.parse(`toast=abc; ${header}; theme=dark`)).toEqual({ user_token: "t" });
      expect(await cookie.parse(header)).toEqual({ user_token: "t" });
    }
    expect(await cookie.parse("toast=abc; theme=dark")).toBeNull();
    expect(await cookie.parse("__session=; toast=abc")).toBeNull();
    expect(await cookie.parse(null)).toBeNull();
  });
});
