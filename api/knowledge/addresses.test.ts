import { describe, expect, it } from "vitest";
import { duplicateWebsiteErrors, pageAddress, websiteKey } from "./addresses";

describe("website and page addresses", () => {
  it("take scheme and host in any case, without a default port, fragment or trailing slash, as one website", () => {
    const key = websiteKey("https://www.example.com/");
    for (const same of [
      "https://www.example.com",
      "HTTPS://WWW.EXAMPLE.COM/",
      "https://www.example.com:443/#top",
      " https://www.example.com/ ",
    ])
      expect(websiteKey(same), same).toBe(key);
    for (const other of [
      "http://www.example.com/",
      "https://example.com/",
      "https://www.example.com:8443/",
      "https://www.example.com/Programs",
      "https://www.example.com/?lang=fr",
    ])
      expect(websiteKey(other), other).not.toBe(key);
    expect(websiteKey("https://www.example.com/programs/")).toBe(websiteKey("https://www.example.com/programs"));
  });

  it("store a page without its fragment, its host lower-cased, its path as given", () => {
    expect(pageAddress("https://WWW.Example.com:443/A/b#frag")).toBe("https://www.example.com/A/b");
    expect(pageAddress("https://www.example.com/a/")).toBe("https://www.example.com/a/");
  });

  it("store a page without the tracking parameters of campaigns and ads, keeping the rest of its query as written", () => {
    expect(pageAddress("https://www.example.com/fees?utm_source=mail&UTM_Campaign=fall")).toBe(
      "https://www.example.com/fees",
    );
    expect(pageAddress("https://www.example.com/fees?gclid=abc&year=2026&fbclid=x&q=a%20b+c")).toBe(
      "https://www.example.com/fees?year=2026&q=a%20b+c",
    );
    expect(pageAddress("https://www.example.com/fees?year=2026&msclkid=1#rates")).toBe(
      "https://www.example.com/fees?year=2026",
    );
    // A parameter that only begins like one is the page's own.
    expect(pageAddress("https://www.example.com/fees?utmost=1")).toBe("https://www.example.com/fees?utmost=1");
  });

  it("flag new addresses only, against the websites as the save leaves them", () => {
    const existing = [
      { id: 1, url: "https://a.example/" },
      { id: 2, url: "https://b.example/" },
    ];
    expect(duplicateWebsiteErrors([{ url: "https://A.example" }], existing)).toEqual({
      "websites.0.url": ["This client already has the website https://a.example/"],
    });
    expect(
      duplicateWebsiteErrors(
        [
          { id: 1, url: "https://b.example/" },
          { id: 2, url: "https://c.example/" },
        ],
        existing,
      ),
    ).toEqual({});
    expect(
      duplicateWebsiteErrors([{ url: "https://c.example/" }, { id: 2, url: "https://c.example" }], existing),
    ).toEqual({ "websites.1.url": ["The same website is in another row of this save"] });
    // An id of no website of this client is left to the save's own not-found answer.
    expect(duplicateWebsiteErrors([{ id: 99, url: "https://a.example/" }], existing)).toEqual({});
  });
});
