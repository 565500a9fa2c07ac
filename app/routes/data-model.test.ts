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
import { DATA_MODEL_MESSAGES, type ConfigDetail, type ProgramRecordsList } from "@contract";
import type { FieldErrors } from "~/lib/required-check";
import {
  action as programAction,
  loader as programLoader,
} from "./$appName.agent.$agentName.knowledge-store.program-data-model";
import { loader as personalizationProgramLoader } from "./$appName.agent.$agentName.personalization.program-profile-data-model";
import {
  action as userAction,
  loader as userLoader,
} from "./$appName.agent.$agentName.personalization.user-profile-data-model";
import { loader as studentLoader } from "./$appName.agent.$agentName.user-profiling.student-profile-data-model";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

const USER = "/northfield/agent/admissions/personalization/user-profile-data-model";
const PROGRAM = "/northfield/agent/admissions/knowledge-store/program-data-model";
const params = { appName: "northfield", agentName: "admissions" };
const args = (request: Request) => ({ request, context: testContext(host), params });

interface PageData {
  title: string;
  modelType: string;
  fields: ConfigDetail[];
  error: string | null;
  editing: boolean;
  importing: boolean;
  deleting: { id: number; name: string } | null;
  importChoices: { code: string; name: string }[];
  programs: ProgramRecordsList | null;
}
interface FieldsAnswer {
  form: "fields";
  rows: { id: string; name: string; group: string; field_type: string; definition: string }[];
  errors: (FieldErrors | null)[];
  formError: string | null;
}

const load = async (loader: typeof userLoader, path: string, cookie: string) =>
  (await loaderJson(loader, args(getRequest(path, cookie)))) as PageData;

/** The fields the drawer's form posts for one row (a saved one also posts what was loaded). */
function row(
  index: number,
  values: { id?: number; group: string; name: string; definition?: string; field_type: string },
  loaded?: ConfigDetail,
) {
  const p = `fields[${index}]`;
  return {
    [`${p}.id`]: values.id ? String(values.id) : "",
    [`${p}.group`]: values.group,
    [`${p}.name`]: values.name,
    [`${p}.definition`]: values.definition ?? "",
    [`${p}.field_type`]: values.field_type,
    ...(loaded
      ? {
          [`${p}.loaded.group`]: loaded.group,
          [`${p}.loaded.name`]: loaded.name,
          [`${p}.loaded.definition`]: loaded.definition,
          [`${p}.loaded.field_type`]: loaded.field_type,
        }
      : {}),
  };
}
const untouched = (index: number, field: ConfigDetail) => row(index, { ...field }, field);

describe("the data model screens", () => {
  it("save new fields from the drawer, then show them grouped, separate per model", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const saved = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            {
              intent: "save",
              ...row(0, {
                group: "Academic Profile",
                name: "intended_major",
                definition: "The major the student wants",
                field_type: "text",
              }),
              ...row(1, { group: "Residency & Visa", name: "needs_visa", field_type: "boolean" }),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(saved).toHaveRedirect(USER);
    await expect(saved).toSendToast({ type: "success", description: "2 fields saved" });

    const user = await load(userLoader, USER, cookie);
    expect(user.title).toBe("Manage User Profile Data Model");
    expect(user.fields.map((f) => [f.group, f.name, f.field_type])).toEqual([
      ["Academic Profile", "intended_major", "text"],
      ["Residency & Visa", "needs_visa", "boolean"],
    ]);
    // The student-profiling screen edits the same user model; the program screens do not see it.
    expect(
      (await load(studentLoader, "/northfield/agent/admissions/user-profiling/student-profile-data-model", cookie))
        .fields,
    ).toHaveLength(2);
    expect((await load(programLoader, PROGRAM, cookie)).fields).toEqual([]);
  });

  it("checks name, type and group on the server, keeping every row as typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const answer = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            {
              intent: "save",
              ...row(0, { group: "", name: "", definition: "kept as typed", field_type: "" }),
              ...row(1, { group: "Others", name: "1bad name", field_type: "number" }),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as FieldsAnswer;
    expect(body.errors[0]).toEqual({
      group: ["This string is required"],
      name: ["This string is required"],
      field_type: ["This string is required"],
    });
    expect(body.errors[1]).toBeNull();
    expect(body.rows[0]).toMatchObject({ definition: "kept as typed" });

    // The API's own refusal (the name's pattern) lands on the cell it is about.
    const refused = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            { intent: "save", ...row(0, { group: "Others", name: "1bad name", field_type: "number" }) },
            cookie,
          ),
        ),
      ),
    );
    expect(refused.status).toBe(400);
    const refusedBody = (await refused.json()) as FieldsAnswer;
    expect(refusedBody.errors[0]?.name?.[0]).toMatch(/Start with a letter/);
    expect(refusedBody.rows[0].name).toBe("1bad name");
  });

  it("adds a blank row on top without JavaScript", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const added = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            { intent: "add-row", ...untouched(0, fields[0]), ...untouched(1, fields[1]) },
            cookie,
          ),
        ),
      ),
    );
    const addedBody = (await added.json()) as FieldsAnswer;
    expect(addedBody.rows.map((r) => r.name)).toEqual(["", "intended_major", "needs_visa"]);
  });

  it("discards a new row without JavaScript", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const discarded = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            {
              intent: "discard-row:0",
              ...row(0, { group: "", name: "", field_type: "" }),
              ...untouched(1, fields[0]),
              ...untouched(2, fields[1]),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(((await discarded.json()) as FieldsAnswer).rows.map((r) => r.name)).toEqual([
      "intended_major",
      "needs_visa",
    ]);
  });

  it("saves only the field that changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const renamed = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            {
              intent: "save",
              ...row(0, { ...fields[0], name: "planned_major" }, fields[0]),
              ...untouched(1, fields[1]),
            },
            cookie,
          ),
        ),
      ),
    );
    await expect(renamed).toSendToast({ type: "success", description: "1 field saved" });
    expect((await load(userLoader, USER, cookie)).fields.map((f) => f.name)).toEqual(["planned_major", "needs_visa"]);
  });

  it("keeps what another tab saved since this page loaded, and flags a cell both changed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const [first] = fields;
    const post = (values: Record<string, string>) =>
      settle(() => userAction(args(formRequest(`${USER}?edit=1`, { intent: "save", ...values }, cookie))));
    // Tab B changes the definition and saves.
    await post(row(0, { ...first, definition: "Changed in tab B" }, first));
    // Tab A, loaded before, changes only the type: tab B's definition stays.
    const typed = await post(row(0, { ...first, field_type: "array" }, first));
    await expect(typed).toSendToast({ type: "success", description: "1 field saved" });
    const [afterA] = (await load(userLoader, USER, cookie)).fields;
    expect(afterA).toMatchObject({ definition: "Changed in tab B", field_type: "array" });

    // Both change the definition, differently: tab A is told beside the cell, its text kept.
    const clash = await post(row(0, { ...first, definition: "Changed in tab A" }, first));
    expect(clash.status).toBe(409);
    const reply = (await clash.json()) as FieldsAnswer & { errors: Record<string, string[]>[] };
    expect(reply.errors[0].definition).toEqual([
      "Changed to “Changed in tab B” since you opened this page; save again to keep yours",
    ]);
    expect(reply.rows[0]).toMatchObject({ definition: "Changed in tab A", field_type: "array" });
    // Saving again, from what the reply showed, keeps tab A's.
    const again = await post(row(0, reply.rows[0] as never, { ...afterA } as never));
    await expect(again).toSendToast({ type: "success", description: "1 field saved" });
    expect((await load(userLoader, USER, cookie)).fields[0]).toMatchObject({ definition: "Changed in tab A" });
    await post(row(0, { ...first }, (await load(userLoader, USER, cookie)).fields[0]));
  });

  it("asks 'Confirm Delete' from the table and deletes, keeping what is typed in the other rows", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const extra = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1`,
            { intent: "save", ...row(0, { group: "Others", name: "to_delete", field_type: "text" }) },
            cookie,
          ),
        ),
      ),
    );
    expect(extra).toHaveRedirect();
    const [first, second, third] = (await load(userLoader, USER, cookie)).fields;
    expect(third.name).toBe("to_delete");
    const typedRows = {
      ...row(0, { ...first, definition: "typed, not saved" }, first),
      ...untouched(1, second),
      ...untouched(2, third),
    };
    const post = (intent: string) =>
      settle(() => userAction(args(formRequest(`${USER}?edit=1`, { intent, ...typedRows }, cookie))));

    const asked = (await (await post(`ask-delete-${third.id}`)).json()) as FieldsAnswer & { asking: unknown };
    expect(asked.asking).toEqual({ id: third.id, name: "to_delete" });
    expect(asked.rows[0].definition).toBe("typed, not saved");

    const deleted = (await (await post(`delete-field-${third.id}`)).json()) as FieldsAnswer & { done: string };
    expect(deleted.done).toBe("Deleted to_delete");
    expect(deleted.rows.map((r) => r.name)).toEqual([first.name, second.name]);
    expect(deleted.rows[0].definition).toBe("typed, not saved");
    expect((await load(userLoader, USER, cookie)).fields.map((f) => f.name)).toEqual([first.name, second.name]);
    // Nothing else was saved: the typed definition is still only in the form.
    expect((await load(userLoader, USER, cookie)).fields[0].definition).toBe(first.definition);
    expect(fields).toHaveLength(2);
  });

  it("asks 'Confirm Delete' by address, then deletes one field", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { fields } = await load(userLoader, USER, cookie);
    const asking = await load(userLoader, `${USER}?edit=1&delete=${fields[1].id}`, cookie);
    expect(asking).toMatchObject({ editing: true, deleting: { id: fields[1].id, name: "needs_visa" } });
    expect(DATA_MODEL_MESSAGES.confirmDelete).toBe("Confirm Delete");
    const deleted = await settle(() =>
      userAction(
        args(
          formRequest(
            `${USER}?edit=1&delete=${fields[1].id}`,
            { intent: "delete-field", record_id: String(fields[1].id) },
            cookie,
          ),
        ),
      ),
    );
    expect(deleted).toHaveRedirect(`${USER}?edit=1`);
    await expect(deleted).toSendToast({ type: "success", description: "Deleted needs_visa" });
    expect((await load(userLoader, USER, cookie)).fields.map((f) => f.name)).toEqual(["planned_major"]);
  });

  describe("importing another client's model", () => {
    const shop = "/shopharbor-outfitters/agent/shop/personalization/user-profile-data-model";
    const shopArgs = (request: Request) => ({
      request,
      context: testContext(host),
      params: { appName: "shopharbor-outfitters", agentName: "shop" },
    });

    it("asks by address, offering every other client", async () => {
      const staff = await signInToConsole(host, "admin@example.com");
      const pageData = (await loaderJson(userLoader, shopArgs(getRequest(`${shop}?import=1`, staff)))) as PageData;
      expect(pageData.importing).toBe(true);
      expect(pageData.importChoices.map((c) => c.code)).toContain("northfield");
      expect(pageData.importChoices.map((c) => c.code)).not.toContain("shopharbor-outfitters");
    });

    it("says by the field when no client, or an unknown one, is chosen", async () => {
      const staff = await signInToConsole(host, "admin@example.com");
      const empty = await settle(() =>
        userAction(shopArgs(formRequest(`${shop}?import=1`, { intent: "import", import_app_code: "" }, staff))),
      );
      expect(empty.status).toBe(400);
      expect(await empty.json()).toEqual({ form: "import", code: "", error: "Choose the client to import from" });
      const unknown = await settle(() =>
        userAction(shopArgs(formRequest(`${shop}?import=1`, { intent: "import", import_app_code: "nowhere" }, staff))),
      );
      expect(await unknown.json()).toEqual({
        form: "import",
        code: "nowhere",
        error: "No client with the code nowhere",
      });
    });

    it("imports the chosen client's model over this one", async () => {
      const staff = await signInToConsole(host, "admin@example.com");
      const imported = await settle(() =>
        userAction(
          shopArgs(formRequest(`${shop}?import=1`, { intent: "import", import_app_code: "northfield" }, staff)),
        ),
      );
      expect(imported).toHaveRedirect(shop);
      await expect(imported).toSendToast({
        type: "success",
        description: "Imported 1 field from Northfield University",
      });
      const after = (await loaderJson(userLoader, shopArgs(getRequest(shop, staff)))) as PageData;
      expect(after.fields.map((f) => f.name)).toEqual(["planned_major"]);
    });
  });

  it("refuses to build the recommendation model without program fields", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await load(programLoader, PROGRAM, cookie);
    expect(before.programs?.status.state).toBe("never");
    const refused = await settle(() => programAction(args(formRequest(PROGRAM, { intent: "build" }, cookie))));
    await expect(refused).toSendToast({
      type: "error",
      description: "Add fields to the program profile data model before building the recommendation model",
    });
  });

  it("builds the recommendation model from program fields, its state shown on both program pages", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    await settle(() =>
      programAction(
        args(
          formRequest(
            `${PROGRAM}?edit=1`,
            { intent: "save", ...row(0, { group: "Budgets & Financials", name: "tuition", field_type: "number" }) },
            cookie,
          ),
        ),
      ),
    );
    const started = await settle(() => programAction(args(formRequest(PROGRAM, { intent: "build" }, cookie))));
    await expect(started).toSendToast({
      type: "success",
      description: "Building the recommendation model. This might take some time.",
    });
    // The personalization Program Profile page edits the same program model.
    const same = await load(
      personalizationProgramLoader,
      "/northfield/agent/admissions/personalization/program-profile-data-model",
      cookie,
    );
    expect(same.fields.map((f) => f.name)).toEqual(["tuition"]);
    expect(["queued", "running", "completed"]).toContain(same.programs?.status.state);
  });

  it("lets a client user look at the fields but not change them", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await load(userLoader, `${USER}?edit=1`, cookie);
    expect(page.fields.map((f) => f.name)).toEqual(["planned_major"]);
    const attempts: Record<string, string>[] = [
      { intent: "save", ...row(0, { group: "Others", name: "x", field_type: "text" }) },
      { intent: "import", import_app_code: "northfield" },
      { intent: "build" },
    ];
    for (const fields of attempts) {
      const answer = await settle(() => userAction(args(formRequest(`${USER}?edit=1`, fields, cookie))));
      expect(answer.status).toBe(403);
    }
  });
});
