import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, urls, visitorProfiles, websites } from "../db/schema";
import { tsvectorOf } from "../knowledge/words/lexemes";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { contactFields } from "../../tests/support/controls";

let host: Awaited<ReturnType<typeof startTestHost>>;
let key: string;

beforeAll(async () => {
  host = await startTestHost();
  const call = apiCaller(host);
  const { admin, northfield: appId } = await demoCallers(host);
  const [site] = await host.deps.db
    .insert(websites)
    .values({ appId, url: "https://www.northfield.example/", siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  const [page] = await host.deps.db
    .insert(urls)
    .values({
      appId,
      websiteId: site.id,
      url: "https://www.northfield.example/contact",
      title: "Contact",
      status: "indexed",
    })
    .returning();
  // Its lexemes as the pipeline makes them.
  const text = "Call the admissions office at (555) 010-1891 on weekdays.";
  await host.deps.db.insert(chunks).values({ appId, urlId: page.id, position: 0, text, tsv: tsvectorOf(text) });
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: admin,
    body: contactFields("email", "phone"),
  });
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body
    .key;
});
afterAll(() => host?.close());

const profileOf = async (message: string) => {
  const { conversation } = await chatCall(host.api, { key, trigger_point: "admissions", message });
  const [profile] = await host.deps.db
    .select()
    .from(visitorProfiles)
    .where(eq(visitorProfiles.conversationId, conversation));
  return profile?.values ?? null;
};

describe("the visitor's profile", () => {
  it("keeps none of the organisation's own contact details that a visitor asks about", async () => {
    expect(await profileOf("Is admissions@northfield.example the right address to send my transcript to?")).toBeNull();
    expect(await profileOf("Is (555) 010-1891 the phone number of the admissions office?")).toBeNull();
  });

  it("knows the organisation's address on an internationalised domain, written either way", async () => {
    const appId = (await host.deps.db.select({ appId: websites.appId }).from(websites))[0].appId;
    // The website as the console stores an address: its host in ASCII (xn--…).
    await host.deps.db.insert(websites).values({
      appId,
      url: new URL("https://www.université-northfield.example/").href,
      siteMap: "few_urls",
      status: "sitemap_generated",
    });
    expect(await profileOf("Is admissions@université-northfield.example the right address?")).toBeNull();
    expect(await profileOf("Is admissions@xn--universit-northfield-j2b.example the right address?")).toBeNull();
    expect(await profileOf("My email is jürgen.müller@web.example")).toEqual({ email: "jürgen.müller@web.example" });
  });

  it("keeps the visitor's own, a university address of theirs included", async () => {
    expect(await profileOf("My email is pia@students.northfield.example and my phone is (555) 010-7777.")).toEqual({
      email: "pia@students.northfield.example",
      phone: "(555) 010-7777",
    });
  });
});
