import { NOT_SHOWN_JUST_NOW } from "~/lib/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  testContext,
  signInToConsole,
} from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { INPUT_PROMPT_MESSAGES, type Finetuning, type InputPrompt } from "@contract";
import type { FinetuningFormRow, PromptFormRow } from "~/lib/tuning";
import type { TriggerPointChoice } from "~/lib/trigger-points";
import type { FieldErrors } from "~/lib/required-check";
import { action as finetuningAction, loader as finetuningLoader } from "./$appName.ai-finetuning.ai-finetuning";
import { action as promptsAction, loader as promptsLoader } from "./$appName.ai-finetuning.input-prompts";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

const PROMPTS = "/northfield/ai-finetuning/input-prompts";
const FINETUNING = "/northfield/ai-finetuning/ai-finetuning";
const params = { appName: "northfield" };
const args = (request: Request, context = testContext(host)) => ({ request, context, params });

interface Answer<Row> {
  rows: Row[];
  errors: (FieldErrors | null)[];
  formError: string | null;
}

// ── Input prompts ───────────────────────────────────────────────────────────────────────────

interface PromptsData {
  client: { id: number; name: string };
  choice: TriggerPointChoice;
  prompts: InputPrompt[];
  error: string | null;
  deleting: { id: number; internal_name: string } | null;
}

const loadPrompts = async (cookie: string, search = "", context = testContext(host)): Promise<PromptsData> =>
  loaderJson(promptsLoader, args(getRequest(`${PROMPTS}${search}`, cookie), context));

const postPrompts = (cookie: string, fields: Record<string, string>, search = "") =>
  settle(() => promptsAction(args(formRequest(`${PROMPTS}${search}`, fields, cookie))));

/** The fields the form posts for one prompt row (a saved one also posts what was loaded). */
function promptFields(index: number, row: { id?: number; key: string; text: string }, loaded?: InputPrompt) {
  const p = `input_prompts[${index}]`;
  return {
    [`${p}.id`]: row.id ? String(row.id) : "",
    [`${p}.internal_name`]: row.key,
    [`${p}.prompt_input_raw`]: row.text,
    ...(loaded
      ? {
          [`${p}.loaded.internal_name`]: loaded.internal_name,
          [`${p}.loaded.prompt_input_raw`]: loaded.prompt_input_raw,
        }
      : {}),
  };
}
const untouchedPrompt = (index: number, prompt: InputPrompt) =>
  promptFields(index, { id: prompt.id, key: prompt.internal_name, text: prompt.prompt_input_raw }, prompt);

describe("Input Prompts", () => {
  it("saves new prompts under the chosen trigger point, with the spec's toast", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const initial = await loadPrompts(cookie);
    expect(initial.choice).toMatchObject({ triggerPoint: "", selectable: true });
    expect(initial.choice.options.map((o) => o.label)).toEqual(["Default", "admissions", "studentsuccess"]);

    const saved = await postPrompts(
      cookie,
      { intent: "save", ...promptFields(0, { key: "welcome_message", text: "Welcome!\r\nHow can I help?" }) },
      "?trigger_point=admissions",
    );
    expect(saved).toHaveRedirect(`${PROMPTS}?trigger_point=admissions`);
    await expect(saved).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });

    const admissions = await loadPrompts(cookie, "?trigger_point=admissions");
    expect(admissions.choice.triggerPoint).toBe("admissions");
    expect(admissions.prompts).toMatchObject([
      { internal_name: "welcome_message", prompt_input_raw: "Welcome!\nHow can I help?", trigger_point: "admissions" },
    ]);
    expect((await loadPrompts(cookie)).prompts.some((p) => p.internal_name === "welcome_message")).toBe(false);
  });

  it("requires the key and the prompt, on the server too, keeping what was typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { key: "only_key", text: "  " }),
      ...promptFields(1, { key: "", text: "Text without a key" }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<PromptFormRow>;
    expect(answer.formError).toBe("Fix the highlighted rows before saving.");
    expect(answer.errors).toEqual([
      { prompt_input_raw: ["This string is required"] },
      { internal_name: ["This string is required"] },
    ]);
    expect(answer.rows.map((r) => r.prompt_input_raw)).toEqual(["  ", "Text without a key"]);
  });

  it("names a missing field and a key the API would refuse in the same answer, not one save after the other", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { key: "greeting", text: "" }),
      ...promptFields(1, { key: "has spaces", text: "Some text" }),
      ...promptFields(2, { key: "k".repeat(101), text: "Some text" }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<PromptFormRow>;
    expect(answer.errors).toEqual([
      { prompt_input_raw: ["This string is required"] },
      { internal_name: ["Use letters, digits, '_', '.' and '-' only, without spaces"] },
      { internal_name: ["Prompt keys are at most 100 characters"] },
    ]);
  });

  it("shows a key's refusal next to the cell of the row it is about; untouched rows are not sent", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    await postPrompts(cookie, { intent: "save", ...promptFields(0, { key: "closing", text: "Goodbye." }) });
    const [closing] = (await loadPrompts(cookie)).prompts.filter((p) => p.internal_name === "closing");
    const response = await postPrompts(cookie, {
      intent: "save",
      ...untouchedPrompt(0, closing),
      ...promptFields(1, { key: "has spaces", text: "Some text" }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<PromptFormRow>;
    expect(answer.errors[0]).toBeNull();
    expect(answer.errors[1]).toEqual({ internal_name: ["Use letters, digits, '_', '.' and '-' only, without spaces"] });
    expect(answer.rows[1]).toMatchObject({ internal_name: "has spaces", prompt_input_raw: "Some text" });
  });

  it("refuses a new row whose key is already saved under the trigger point, beside its Prompt Key, keeping what was typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const search = "?trigger_point=admissions";
    const first = await postPrompts(
      cookie,
      { intent: "save", ...promptFields(0, { key: "welcome_msg", text: "Welcome to admissions." }) },
      search,
    );
    await expect(first).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });
    const before = (await loadPrompts(cookie, search)).prompts;

    const response = await postPrompts(
      cookie,
      {
        intent: "save",
        ...promptFields(0, { key: "welcome_msg", text: "A different welcome." }),
        ...Object.assign({}, ...before.map((prompt, i) => untouchedPrompt(i + 1, prompt))),
      },
      search,
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<PromptFormRow>;
    expect(answer.formError).toBe("Fix the highlighted rows before saving.");
    expect(answer.errors).toEqual([
      { internal_name: ["Another prompt of this trigger point already uses this key"] },
      ...before.map(() => null),
    ]);
    expect(answer.rows[0]).toMatchObject({
      id: "",
      internal_name: "welcome_msg",
      prompt_input_raw: "A different welcome.",
    });
    expect(answer.rows).toHaveLength(before.length + 1);
    // Nothing saved: the saved prompt keeps its text.
    expect((await loadPrompts(cookie, search)).prompts).toEqual(before);
  });

  it("refuses two new rows with one key in one save, beside the later one's Prompt Key", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const search = "?trigger_point=admissions";
    const before = (await loadPrompts(cookie, search)).prompts;
    const response = await postPrompts(
      cookie,
      {
        intent: "save",
        ...promptFields(0, { key: "twin_key", text: "One" }),
        ...promptFields(1, { key: "twin_key", text: "Two" }),
      },
      search,
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<PromptFormRow>;
    expect(answer.errors).toEqual([null, { internal_name: ["This prompt key is listed twice"] }]);
    expect(answer.rows.map((r) => r.prompt_input_raw)).toEqual(["One", "Two"]);
    expect((await loadPrompts(cookie, search)).prompts).toEqual(before);
  });

  it("updates a saved prompt that was edited", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [closing] = (await loadPrompts(cookie)).prompts.filter((p) => p.internal_name === "closing");
    const edited = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { id: closing.id, key: "closing", text: "See you soon." }, closing),
    });
    await expect(edited).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });
    expect((await loadPrompts(cookie)).prompts.find((p) => p.id === closing.id)?.prompt_input_raw).toBe(
      "See you soon.",
    );
  });

  it("keeps what another tab saved since this page loaded, and flags a cell both changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const tab = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { key: "two_tabs", text: "As first saved." }),
    });
    await expect(tab).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });
    const loaded = (await loadPrompts(cookie)).prompts.find((p) => p.internal_name === "two_tabs")!;
    // Tab B changes the text and saves.
    await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { id: loaded.id, key: "two_tabs", text: "Changed in tab B." }, loaded),
    });
    // Tab A, loaded before, changes only the key: tab B's text stays.
    const renamed = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { id: loaded.id, key: "two_tabs_renamed", text: loaded.prompt_input_raw }, loaded),
    });
    await expect(renamed).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });
    const afterA = (await loadPrompts(cookie)).prompts.find((p) => p.id === loaded.id)!;
    expect(afterA).toMatchObject({ internal_name: "two_tabs_renamed", prompt_input_raw: "Changed in tab B." });

    // Both change the text, differently: tab A is told beside the cell, everything typed kept, nothing saved.
    const clash = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(0, { id: loaded.id, key: "two_tabs", text: "Changed in tab A." }, loaded),
    });
    expect(clash.status).toBe(409);
    const reply = (await clash.json()) as Answer<PromptFormRow>;
    expect(reply.errors[0]?.prompt_input_raw).toEqual([
      "Changed to “Changed in tab B.” since you opened this page; save again to keep yours",
    ]);
    expect(reply.rows[0]).toMatchObject({ internal_name: "two_tabs_renamed", prompt_input_raw: "Changed in tab A." });
    expect((await loadPrompts(cookie)).prompts.find((p) => p.id === loaded.id)).toEqual(afterA);
    // Saving again, from what the reply showed, keeps tab A's text.
    const row = reply.rows[0];
    const again = await postPrompts(cookie, {
      intent: "save",
      ...promptFields(
        0,
        { id: loaded.id, key: row.internal_name, text: row.prompt_input_raw },
        {
          ...loaded,
          ...row.loaded!,
        },
      ),
    });
    await expect(again).toSendToast({ type: "success", description: INPUT_PROMPT_MESSAGES.saved });
    expect((await loadPrompts(cookie)).prompts.find((p) => p.id === loaded.id)?.prompt_input_raw).toBe(
      "Changed in tab A.",
    );
  });

  it("adds a blank row on top without JavaScript", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const added = await postPrompts(cookie, { intent: "add-row", ...promptFields(0, { key: "typed", text: "kept" }) });
    expect(added.status).toBe(200);
    const { rows } = (await added.json()) as Answer<PromptFormRow>;
    expect(rows).toEqual([
      { id: "", internal_name: "", prompt_input_raw: "", loaded: null },
      { id: "", internal_name: "typed", prompt_input_raw: "kept", loaded: null },
    ]);
  });

  it("discards a new row without JavaScript", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const discarded = await postPrompts(cookie, {
      intent: "discard-row:0",
      ...promptFields(0, { key: "", text: "" }),
      ...promptFields(1, { key: "typed", text: "kept" }),
    });
    expect(((await discarded.json()) as Answer<PromptFormRow>).rows.map((r) => r.internal_name)).toEqual(["typed"]);
  });

  it("refuses an unknown intent with 400", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    expect((await postPrompts(cookie, { intent: "explode" })).status).toBe(400);
  });

  it("asks by address before deleting a saved prompt", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    await postPrompts(
      cookie,
      { intent: "save", ...promptFields(0, { key: "to_delete", text: "Soon gone." }) },
      "?trigger_point=studentsuccess",
    );
    const [prompt] = (await loadPrompts(cookie, "?trigger_point=studentsuccess")).prompts.filter(
      (p) => p.internal_name === "to_delete",
    );
    expect((await loadPrompts(cookie, `?trigger_point=studentsuccess&delete=${prompt.id}`)).deleting).toEqual({
      id: prompt.id,
      internal_name: "to_delete",
    });
    expect((await loadPrompts(cookie, "?delete=999999")).deleting).toBeNull();
  });

  it("deletes a saved prompt; deleting it again says it cannot", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [prompt] = (await loadPrompts(cookie, "?trigger_point=studentsuccess")).prompts.filter(
      (p) => p.internal_name === "to_delete",
    );
    const deleted = await postPrompts(
      cookie,
      { intent: "delete", prompt_id: String(prompt.id) },
      `?trigger_point=studentsuccess&delete=${prompt.id}`,
    );
    expect(deleted).toHaveRedirect(`${PROMPTS}?trigger_point=studentsuccess`);
    await expect(deleted).toSendToast({ type: "success", description: "Deleted the prompt to_delete" });
    expect((await loadPrompts(cookie, "?trigger_point=studentsuccess")).prompts.some((p) => p.id === prompt.id)).toBe(
      false,
    );

    const again = await postPrompts(cookie, { intent: "delete", prompt_id: String(prompt.id) });
    await expect(again).toSendToast({ type: "error", description: INPUT_PROMPT_MESSAGES.deleteFailed });
  });

  it("lets a client user look but not change anything", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    expect((await loadPrompts(cookie)).error).toBeNull();
    expect(
      (await postPrompts(cookie, { intent: "save", ...promptFields(0, { key: "nope", text: "Nope" }) })).status,
    ).toBe(403);
    expect((await postPrompts(cookie, { intent: "delete", prompt_id: "1" })).status).toBe(403);
  });

  it("shows 'Error: {message}' when the prompts cannot be loaded (an API that cannot reach its data: to try again shortly)", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const context = testContext(host);
    const failing = {
      ...context,
      apiFetch: async (request: Request) =>
        new URL(request.url).pathname.endsWith("/input_prompts")
          ? Response.json({ message: "The database is resting" }, { status: 503 })
          : context.apiFetch(request),
    };
    expect(await loadPrompts(cookie, "", failing)).toMatchObject({
      prompts: [],
      error: `Error: ${NOT_SHOWN_JUST_NOW}`,
    });
  });
});

// ── AI Finetuning ───────────────────────────────────────────────────────────────────────────

interface FinetuningData {
  client: { id: number; name: string };
  sites: { value: string; label: string }[];
  finetunings: Finetuning[];
  error: string | null;
}

const loadFinetuning = async (cookie: string): Promise<FinetuningData> =>
  loaderJson(finetuningLoader, args(getRequest(FINETUNING, cookie)));

const postFinetuning = (cookie: string, fields: Record<string, string>) =>
  settle(() => finetuningAction(args(formRequest(FINETUNING, fields, cookie))));

type RowInput = Partial<Omit<FinetuningFormRow, "loaded">> & { finetuning_type: string };

/** The fields the form posts for one rule (a saved one also posts what was loaded). */
function ruleFields(index: number, row: RowInput, loaded?: Finetuning) {
  const p = `finetunings[${index}]`;
  const fields: Record<string, string> = {
    [`${p}.id`]: row.id ?? `new-${index + 1}`,
    [`${p}.trigger_point`]: row.trigger_point ?? "",
    [`${p}.finetuning_type`]: row.finetuning_type,
    [`${p}.pattern`]: row.pattern ?? "",
    [`${p}.penalty`]: row.penalty ?? "",
    [`${p}.metadata`]: row.metadata ?? "",
  };
  if (row.deleted) fields[`${p}.deleted`] = "true";
  if (loaded) {
    fields[`${p}.loaded`] = JSON.stringify({
      trigger_point: loaded.trigger_point,
      finetuning_type: loaded.finetuning_type,
      pattern: loaded.pattern,
      penalty: loaded.penalty === null ? "" : String(loaded.penalty),
      metadata: Object.keys(loaded.metadata).length ? JSON.stringify(loaded.metadata) : "",
    });
  }
  return fields;
}
/** A saved rule's row as loaded, with the edits given (loaded from `loaded`, the rule itself by default). */
const untouchedRule = (index: number, rule: Finetuning, edits: Partial<RowInput> = {}, loaded = rule) =>
  ruleFields(
    index,
    {
      id: String(rule.id),
      trigger_point: rule.trigger_point,
      finetuning_type: rule.finetuning_type,
      pattern: rule.pattern,
      penalty: rule.penalty === null ? "" : String(rule.penalty),
      metadata: Object.keys(rule.metadata).length ? JSON.stringify(rule.metadata) : "",
      ...edits,
    },
    loaded,
  );

describe("AI Finetuning", () => {
  it("offers Default, the trigger points and the agents' site codes as sites", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const data = await loadFinetuning(cookie);
    expect(data.sites).toEqual([
      { value: "", label: "Default" },
      { value: "admissions", label: "admissions" },
      { value: "studentsuccess", label: "studentsuccess" },
    ]);
    expect(data.error).toBeNull();
  });

  it("saves rows of all three tables in one save; blank rows are ignored", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...ruleFields(0, { finetuning_type: "url_pattern", pattern: "/news/", penalty: "0.5" }),
      ...ruleFields(1, { finetuning_type: "url_pattern" }), // left blank
      ...ruleFields(2, {
        finetuning_type: "pdf_weightage",
        trigger_point: "admissions",
        pattern: "brochure",
        penalty: "0.25",
      }),
      ...ruleFields(3, { finetuning_type: "html_tags_to_remove", metadata: '{"tags": ["footer", ".cookie-banner"]}' }),
    });
    expect(response).toHaveRedirect(FINETUNING);
    await expect(response).toSendToast({
      type: "success",
      description: "AI Finetuning saved: 3 rules saved",
    });
    const { finetunings } = await loadFinetuning(cookie);
    expect(finetunings).toEqual([
      expect.objectContaining({
        finetuning_type: "url_pattern",
        trigger_point: "",
        pattern: "/news/",
        penalty: 0.5,
        metadata: {},
      }),
      expect.objectContaining({
        finetuning_type: "pdf_weightage",
        trigger_point: "admissions",
        pattern: "brochure",
        penalty: 0.25,
      }),
      expect.objectContaining({
        finetuning_type: "html_tags_to_remove",
        trigger_point: "",
        pattern: "",
        penalty: null,
        metadata: { tags: ["footer", ".cookie-banner"] },
      }),
    ]);
  });

  it("refuses a penalty of 2 and unreadable metadata beside their cells, keeping every row as typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...ruleFields(0, { finetuning_type: "html_weightage", pattern: "/apply/", penalty: "2" }),
      ...ruleFields(1, { finetuning_type: "html_tags_to_remove", metadata: "{tags: [footer" }),
      ...ruleFields(2, { finetuning_type: "url_pattern", pattern: "/fine/", penalty: "0.1" }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<FinetuningFormRow>;
    expect(answer.formError).toBe("Fix the highlighted rows before saving.");
    expect(answer.errors).toEqual([
      { penalty: ["The penalty must be a number from 0 to 1"] },
      { metadata: [expect.stringMatching(/^Metadata must be a JSON object, like/)] },
      null,
    ]);
    expect(answer.rows.map((r) => [r.id, r.penalty, r.metadata])).toEqual([
      ["new-1", "2", ""],
      ["new-2", "", "{tags: [footer"],
      ["new-3", "0.1", ""],
    ]);
    expect((await loadFinetuning(cookie)).finetunings.some((r) => r.pattern === "/fine/")).toBe(false);
  });

  it("refuses a post with a rule of a type no table shows, saying so above the tables and saving nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...ruleFields(0, { finetuning_type: "url_pattern", pattern: "/typed-with-it/", penalty: "0.2" }),
      ...ruleFields(1, { finetuning_type: "no_such_type", pattern: "/forged/", penalty: "0.1" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer<FinetuningFormRow>).formError).toBe(
      "The form could not be read; reload the page",
    );
    expect((await loadFinetuning(cookie)).finetunings.some((r) => r.pattern === "/typed-with-it/")).toBe(false);
  });

  it("puts what only the API finds (finetunings.<n>.<field>) on the form row it came from", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [news] = (await loadFinetuning(cookie)).finetunings.filter((r) => r.pattern === "/news/");
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...untouchedRule(0, news), // not sent: sent index 0 is form row 1
      ...ruleFields(1, { finetuning_type: "url_pattern", pattern: "/events/", penalty: "0.3" }),
      ...ruleFields(2, { finetuning_type: "url_pattern", pattern: "/events/", penalty: "0.4" }),
      ...ruleFields(3, { finetuning_type: "url_pattern", trigger_point: "nowhere", pattern: "/x/", penalty: "0.2" }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer<FinetuningFormRow>;
    expect(answer.errors[0]).toBeNull();
    expect(answer.errors[1]).toBeNull();
    expect(answer.errors[2]).toEqual({ pattern: ["The same rule is listed twice for this site"] });
    expect(answer.errors[3]).toEqual({
      trigger_point: [expect.stringMatching(/"nowhere" is not a trigger point of this client/)],
    });
    expect(answer.rows[3]).toMatchObject({ trigger_point: "nowhere", pattern: "/x/", penalty: "0.2" });
  });

  it("adds a blank row with a temporary id without JavaScript", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [news] = (await loadFinetuning(cookie)).finetunings.filter((r) => r.pattern === "/news/");
    const added = await postFinetuning(cookie, {
      intent: "add-row:page_type",
      ...untouchedRule(0, news),
      ...ruleFields(1, { id: "new-1", finetuning_type: "url_pattern", pattern: "/typed/" }),
    });
    const { rows } = (await added.json()) as Answer<FinetuningFormRow>;
    expect(rows.map((r) => [r.id, r.finetuning_type, r.pattern, r.deleted])).toEqual([
      ["new-2", "html_weightage", "", false],
      [String(news.id), "url_pattern", "/news/", false],
      ["new-1", "url_pattern", "/typed/", false],
    ]);
  });

  it("deletes rows without JavaScript: a new row is dropped, a saved one marked to be removed on save", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [news] = (await loadFinetuning(cookie)).finetunings.filter((r) => r.pattern === "/news/");
    const fields = {
      ...untouchedRule(0, news),
      ...ruleFields(1, { id: "new-1", finetuning_type: "url_pattern", pattern: "/typed/" }),
    };
    const dropped = (await (
      await postFinetuning(cookie, { intent: "delete-row:1", ...fields })
    ).json()) as Answer<FinetuningFormRow>;
    expect(dropped.rows.map((r) => r.id)).toEqual([String(news.id)]);
    const marked = (await (
      await postFinetuning(cookie, { intent: "delete-row:0", ...fields })
    ).json()) as Answer<FinetuningFormRow>;
    expect(marked.rows.map((r) => [r.id, r.deleted])).toEqual([
      [String(news.id), true],
      ["new-1", false],
    ]);
    expect((await loadFinetuning(cookie)).finetunings.some((r) => r.id === news.id)).toBe(true);
  });

  it("one save updates changed rows and removes deleted ones; untouched rows stay", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = (await loadFinetuning(cookie)).finetunings;
    const news = before.find((r) => r.pattern === "/news/")!;
    const brochure = before.find((r) => r.pattern === "brochure")!;
    const cleanup = before.find((r) => r.finetuning_type === "html_tags_to_remove")!;
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...ruleFields(
        0,
        { id: String(news.id), finetuning_type: "url_pattern", pattern: "/news/", penalty: "0.75" },
        news,
      ),
      ...ruleFields(
        1,
        {
          id: String(brochure.id),
          finetuning_type: "pdf_weightage",
          trigger_point: "admissions",
          pattern: "brochure",
          penalty: "0.25",
          deleted: true,
        },
        brochure,
      ),
      ...untouchedRule(2, cleanup),
    });
    await expect(response).toSendToast({
      type: "success",
      description: "AI Finetuning saved: 1 rule saved, 1 rule deleted",
    });
    const after = (await loadFinetuning(cookie)).finetunings;
    expect(after.find((r) => r.id === news.id)?.penalty).toBe(0.75);
    expect(after.some((r) => r.id === brochure.id)).toBe(false);
    expect(after.find((r) => r.id === cleanup.id)).toEqual(cleanup);
  });

  it("keeps what another tab saved since this page loaded, and flags a cell both changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const rule = (await loadFinetuning(cookie)).finetunings.find((r) => r.finetuning_type === "url_pattern")!;
    const edited = (index: number, edits: Partial<RowInput>) => untouchedRule(index, rule, edits);
    // Tab B changes the pattern and saves.
    await postFinetuning(cookie, { intent: "save", ...edited(0, { pattern: "/changed-in-b/" }) });
    // Tab A, loaded before, changes only the penalty: tab B's pattern stays.
    const penalty = await postFinetuning(cookie, { intent: "save", ...edited(0, { penalty: "0.4" }) });
    await expect(penalty).toSendToast({ type: "success", description: "AI Finetuning saved: 1 rule saved" });
    const afterA = (await loadFinetuning(cookie)).finetunings.find((r) => r.id === rule.id)!;
    expect(afterA).toMatchObject({ pattern: "/changed-in-b/", penalty: 0.4 });

    // A penalty written with other decimals is the same value: no clash over it.
    const same = await postFinetuning(cookie, {
      intent: "save",
      ...edited(0, { penalty: `${rule.penalty}0`, pattern: "/changed-in-a/" }),
    });
    expect(same.status).toBe(409);
    const reply = (await same.json()) as Answer<FinetuningFormRow>;
    expect(reply.errors[0]).toEqual({
      pattern: ["Changed to “/changed-in-b/” since you opened this page; save again to keep yours"],
    });
    expect(reply.rows[0]).toMatchObject({ pattern: "/changed-in-a/", penalty: "0.4" });
    expect((await loadFinetuning(cookie)).finetunings.find((r) => r.id === rule.id)).toEqual(afterA);
    // Put back as it was, for the other tests.
    await postFinetuning(cookie, { intent: "save", ...untouchedRule(0, rule, {}, afterA) });
    expect((await loadFinetuning(cookie)).finetunings.find((r) => r.id === rule.id)).toEqual(rule);
  });

  it("says so when nothing changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const cleanup = (await loadFinetuning(cookie)).finetunings.find(
      (r) => r.finetuning_type === "html_tags_to_remove",
    )!;
    const nothing = await postFinetuning(cookie, { intent: "save", ...untouchedRule(0, cleanup) });
    await expect(nothing).toSendToast({ type: "info", description: "No changes to save" });
  });

  it("lets a client user look but not change anything", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    expect((await loadFinetuning(cookie)).finetunings.length).toBeGreaterThan(0);
    const response = await postFinetuning(cookie, {
      intent: "save",
      ...ruleFields(0, { finetuning_type: "url_pattern", pattern: "/no/", penalty: "0.5" }),
    });
    expect(response.status).toBe(403);
  });
});
