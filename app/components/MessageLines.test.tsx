import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageLines } from "./MessageLines";

describe("MessageLines", () => {
  it("puts each of several messages on a line of its own, and one message as it is", () => {
    const two = renderToStaticMarkup(
      <MessageLines
        messages={[
          "127.0.0.1 is a private or local address, which the crawler does not visit",
          "This client already has the website http://127.0.0.1:3000/demo-site/",
        ]}
      />,
    );
    expect(two).toMatch(
      /^<span class="[^"]+">127\.0\.0\.1 is a private[^<]+<\/span><span class="[^"]+">This client[^<]+<\/span>$/,
    );
    expect(renderToStaticMarkup(<MessageLines messages={["This field is required"]} />)).toBe("This field is required");
  });
});
