import { describe, expect, it } from "vitest";
import { limitedNetworkOf } from "./throttle";

describe("the network a per-address limit counts", () => {
  it("is an IPv4 address itself, however it is written", () => {
    expect(limitedNetworkOf("203.0.113.9")).toBe("203.0.113.9");
    expect(limitedNetworkOf("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("is an IPv6 address's /64: addresses that differ only in their last half count as one", () => {
    const network = limitedNetworkOf("2001:db8:1:2:aaaa:bbbb:cccc:1");
    expect(network).toBe("2001:db8:1:2::/64");
    expect(limitedNetworkOf("2001:db8:1:2::ffff")).toBe(network);
    expect(limitedNetworkOf("2001:DB8:1:2:0:0:0:7")).toBe(network);
    expect(limitedNetworkOf("2001:db8:1:3::1")).not.toBe(network);
  });

  it("is anything else as written", () => {
    expect(limitedNetworkOf("in-process")).toBe("in-process");
    expect(limitedNetworkOf("")).toBe("");
  });
});
