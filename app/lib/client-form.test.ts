import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  clientTypeForCopyMarket,
  completeClientFields,
  deriveUrlCode,
  marketFor,
  parseTriggerPoints,
  SELECT_FILES_MESSAGE,
} from "./client-form";
import { ClientForm, ImportClientsForm } from "./client-form.schema";
import { URL_CODE_PATTERN } from "@contract/values/apps";

describe("deriveUrlCode (spec §5: protocol and 'www.' removed, split on dots)", () => {
  it("takes the first part of a two-part host", () => {
    expect(deriveUrlCode("https://www.northfield.edu")).toBe("northfield");
    expect(deriveUrlCode("northfield.edu")).toBe("northfield");
    expect(deriveUrlCode("http://example.com")).toBe("example");
  });

  it("joins the subdomain parts and the second-last part of a longer host", () => {
    expect(deriveUrlCode("https://shop.harbor-outfitters.com")).toBe("shopharbor-outfitters");
    expect(deriveUrlCode("www.apply.northfield.edu")).toBe("applynorthfield");
    // The rule knows no public suffixes: 'ac' counts as the second-last part.
    expect(deriveUrlCode("apply.grad.example.ac.uk")).toBe("applygradexampleac");
  });

  it("looks at the host only, lower-cased", () => {
    expect(deriveUrlCode("https://www.Northfield.EDU/admissions?x=1")).toBe("northfield");
    expect(deriveUrlCode("http://shop.example.com:8080/")).toBe("shopexample");
  });

  it("gives what the url_code field takes from an internationalised host", () => {
    expect(deriveUrlCode("https://www.umontréal.ca")).toBe("umontreal");
    expect(deriveUrlCode("https://admisión.universidad.es")).toBe("admisionuniversidad");
    expect(deriveUrlCode("https://北京大学.中国")).toBe("");
    expect(deriveUrlCode("https://-école.fr")).toBe("ecole");
    for (const host of ["https://www.umontréal.ca", "https://www.zürich-uni.ch", "https://ÉCOLE.fr"])
      expect(deriveUrlCode(host), host).toMatch(URL_CODE_PATTERN);
  });

  it("drops 'www.' only at the start", () => {
    expect(deriveUrlCode("https://shop.www.example.com")).toBe("shopwwwexample");
  });

  it("answers '' for nothing and the word itself for a bare name", () => {
    expect(deriveUrlCode("")).toBe("");
    expect(deriveUrlCode("   ")).toBe("");
    expect(deriveUrlCode("https://")).toBe("");
    expect(deriveUrlCode("localhost")).toBe("localhost");
  });
});

describe("marketFor", () => {
  it("is the lower-cased country, an underscore and the url_code", () => {
    expect(marketFor("US", "northfield")).toBe("us_northfield");
    expect(marketFor("UK", "shopharbor-outfitters")).toBe("uk_shopharbor-outfitters");
  });

  it("follows the rule with a blank country, and is empty when both are blank", () => {
    expect(marketFor("", "northfield")).toBe("_northfield");
    expect(marketFor("", "")).toBe("");
  });
});

describe("clientTypeForCopyMarket", () => {
  it("is higher_ed for the 'Higher Edu' templates and ecommerce for the others", () => {
    expect(clientTypeForCopyMarket("us_eduenroll")).toBe("higher_ed");
    expect(clientTypeForCopyMarket("us_devry")).toBe("higher_ed");
    expect(clientTypeForCopyMarket("us_configdefault")).toBe("ecommerce");
  });

  it("is empty when no template is chosen", () => {
    expect(clientTypeForCopyMarket("")).toBe("");
    expect(clientTypeForCopyMarket("nonsense")).toBe("");
  });
});

describe("completeClientFields", () => {
  const base = {
    primary_website: "https://www.northfield.edu",
    url_code: "",
    country: "US",
    copy_market: "us_devry",
    client_type: "",
  };

  it("derives a blank url_code, then market and client_type", () => {
    expect(completeClientFields(base)).toEqual({
      url_code: "northfield",
      market: "us_northfield",
      client_type: "higher_ed",
    });
  });

  it("keeps a url_code the user chose", () => {
    expect(completeClientFields({ ...base, url_code: "nfu" })).toMatchObject({ url_code: "nfu", market: "us_nfu" });
  });

  it("keeps the current client_type when no template is chosen", () => {
    expect(completeClientFields({ ...base, copy_market: "", client_type: "ecommerce" }).client_type).toBe("ecommerce");
  });
});

describe("parseTriggerPoints", () => {
  it("splits on commas and lines, trims and drops empties", () => {
    expect(parseTriggerPoints(" admissions, ,studentsuccess\nshop,")).toEqual(["admissions", "studentsuccess", "shop"]);
    expect(parseTriggerPoints("")).toEqual([]);
  });
});

describe("the form schemas", () => {
  const form = (entries: [string, string][]) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  it("reads an unticked checkbox as false and blank fields as their defaults", () => {
    const submission = parseWithZod(form([["client_name", " Acme "]]), { schema: ClientForm });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      client_name: "Acme",
      onboard_existing_client: false,
      mode_env: "staging",
      country: "",
      trigger_points: "",
    });
  });

  it("reads a ticked checkbox as true", () => {
    const submission = parseWithZod(form([["onboard_existing_client", "on"]]), { schema: ClientForm });
    expect(submission.status === "success" && submission.value.onboard_existing_client).toBe(true);
  });

  it("asks for at least one file to import, and takes one or several", () => {
    const none = parseWithZod(form([]), { schema: ImportClientsForm });
    expect(none.status).toBe("error");
    expect(none.status === "error" && none.error?.file_name).toEqual([SELECT_FILES_MESSAGE]);
    const one = parseWithZod(form([["file_name", "a.json"]]), { schema: ImportClientsForm });
    expect(one.status === "success" && one.value.file_name).toEqual(["a.json"]);
    const two = parseWithZod(
      form([
        ["file_name", "a.json"],
        ["file_name", "b.json"],
      ]),
      { schema: ImportClientsForm },
    );
    expect(two.status === "success" && two.value.file_name).toEqual(["a.json", "b.json"]);
  });
});
