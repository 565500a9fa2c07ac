import { USER_TYPE_LABELS } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { action as accessAction, loader as accessLoader } from "./$appName.access-control";
import { action as usersAction, loader as usersLoader } from "./users";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const args = (request: Request, params: Record<string, string> = {}) => ({
  request,
  context: testContext(host),
  params,
});
const northfield = { appName: "northfield" };

interface ListedUser {
  id: number;
  email: string;
  name: string;
  user_type: string;
  created_at: string;
  app_user?: { role: string; created_at: string };
}

const listUsers = (cookie: string, search = "?page_size=100") =>
  loaderJson(usersLoader, args(getRequest(`/users${search}`, cookie)));

/** The Access Control form posted as a browser without JavaScript posts it: its answer. */
const postAccess = (fields: Record<string, string>, cookie: string) =>
  settle(() => accessAction(args(formRequest("/northfield/access-control", fields, cookie), northfield)));

const listAccess = (cookie: string, search = "?page_size=100") =>
  loaderJson(accessLoader, args(getRequest(`/northfield/access-control${search}`, cookie), northfield));

/** The indexed fields the Users form posts for one row (loaded values only for existing rows). */
function userFields(
  index: number,
  row: { id?: number; email: string; name: string; user_type: string },
  loaded?: ListedUser,
) {
  const p = `users[${index}]`;
  return {
    [`${p}.id`]: row.id ? String(row.id) : "",
    [`${p}.email`]: row.email,
    [`${p}.name`]: row.name,
    [`${p}.user_type`]: row.user_type,
    ...(loaded
      ? {
          [`${p}.loaded.email`]: loaded.email,
          [`${p}.loaded.name`]: loaded.name,
          [`${p}.loaded.user_type`]: loaded.user_type,
        }
      : {}),
  };
}

/** The same row untouched: current values equal to the loaded ones. */
const untouchedUser = (index: number, user: ListedUser) => userFields(index, user, user);

function accessFields(
  index: number,
  row: { id?: number; email: string; name: string; role: string; user_type?: string; remove?: boolean },
  loaded?: ListedUser,
) {
  const p = `users[${index}]`;
  return {
    [`${p}.id`]: row.id ? String(row.id) : "",
    [`${p}.email`]: row.email,
    [`${p}.name`]: row.name,
    [`${p}.role`]: row.role,
    ...(row.id ? {} : { [`${p}.user_type`]: row.user_type ?? "user" }),
    ...(row.remove ? { [`${p}.action`]: "delete" } : {}),
    ...(loaded
      ? {
          [`${p}.loaded.email`]: loaded.email,
          [`${p}.loaded.name`]: loaded.name,
          [`${p}.loaded.role`]: loaded.app_user!.role,
        }
      : {}),
  };
}

describe("Users (/users)", () => {
  it("lists every user with the roles the caller may give", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users, assignableTypes } = await listUsers(cookie);
    expect(users.map((u) => u.email)).toEqual(
      expect.arrayContaining(["admin@example.com", "client.admin@example.com", "client.user@example.com"]),
    );
    expect(assignableTypes).toEqual(["user", "admin", "super_admin"]);
  });

  it("sorts by a column and order named in the address", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const all = (await listUsers(cookie)).users.map((u) => u.email);
    const byEmailDesc = [...all].sort((a, b) => b.localeCompare(a, "en", { sensitivity: "base" }));
    const sorted = await listUsers(cookie, "?sort=email&order=desc&page_size=20");
    expect(sorted.users.map((u) => u.email)).toEqual(byEmailDesc.slice(0, 20));
  });

  it("sorts roles by the label people read ('Admin', 'System Admin', 'User'), not the stored value", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const byRole = await listUsers(cookie, "?sort=role");
    const labels = byRole.users.map((u) => USER_TYPE_LABELS[u.user_type as keyof typeof USER_TYPE_LABELS]);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(new Set(labels).size).toBeGreaterThan(1);
  });

  it("pages through the address, 10 rows by default; a page past the end shows the last one", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const all = (await listUsers(cookie)).users.map((u) => u.email);
    const firstPage = await listUsers(cookie, "");
    expect(firstPage.users.length).toBe(Math.min(10, all.length));
    expect(firstPage.paging).toMatchObject({
      page: 1,
      total: all.length,
      totalPages: Math.max(1, Math.ceil(all.length / 10)),
    });
    const byEmail = [...all].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
    const second = await listUsers(cookie, "?sort=email&page=2&page_size=10");
    // A page past the end shows the last one.
    const expectedPage = Math.min(2, Math.max(1, Math.ceil(all.length / 10)));
    expect(second.paging.page).toBe(expectedPage);
    expect(second.users.map((u) => u.email)).toEqual(byEmail.slice((expectedPage - 1) * 10, expectedPage * 10));
  });

  it("is staff only: the loader and the action answer 403 to a client admin", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    expect((await settle(() => usersLoader(args(getRequest("/users", cookie))))).status).toBe(403);
    const response = await settle(() => usersAction(args(formRequest("/users", { intent: "add-row" }, cookie))));
    expect(response.status).toBe(403);
  });

  it("saves a new user and a changed one, then redirects with the API's message as a toast", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const viewer = users.find((u) => u.email === "client.user@example.com")!;
    const others = users.filter((u) => u !== viewer);
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "save",
              ...userFields(0, { email: "new.person@example.com", name: "New Person", user_type: "admin" }),
              ...userFields(
                1,
                { id: viewer.id, email: viewer.email, name: "Jordan Renamed", user_type: viewer.user_type },
                viewer,
              ),
              ...Object.assign({}, ...others.map((u, i) => untouchedUser(i + 2, u))),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response).toHaveRedirect("/users");
    await expect(response).toSendToast({ type: "success", description: "2 users saved" });

    const after = (await listUsers(cookie)).users;
    expect(after.find((u) => u.email === "new.person@example.com")).toMatchObject({
      name: "New Person",
      user_type: "admin",
    });
    expect(after.find((u) => u.id === viewer.id)?.name).toBe("Jordan Renamed");
  });

  it("says beside a row made a System Admin meanwhile that only a System Admin may change it, the row locked", async () => {
    const saveUsers = (fields: Record<string, string>, cookie: string) =>
      settle(() => usersAction(args(formRequest("/users", { intent: "save", ...fields }, cookie))));
    const systemAdmin = await signInToConsole(host, "admin@example.com");
    const created = await saveUsers(
      {
        ...userFields(0, { email: "staff.admin@example.com", name: "Staff Admin", user_type: "admin" }),
        ...userFields(1, { email: "soon.promoted@example.com", name: "Soon Promoted", user_type: "user" }),
      },
      systemAdmin,
    );
    expect(created).toHaveRedirect("/users");
    const staff = await signInToConsole(host, "staff.admin@example.com");
    const target = (await listUsers(staff)).users.find((u) => u.email === "soon.promoted@example.com")!;
    // A System Admin promotes the user while the staff admin's page, loaded before, renames them.
    const promoted = await saveUsers(userFields(0, { ...target, user_type: "super_admin" }, target), systemAdmin);
    expect(promoted).toHaveRedirect("/users");
    const refused = await saveUsers(userFields(0, { ...target, name: "Renamed" }, target), staff);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const reply = await refused.json();
    // The row comes back as stored now (a System Admin's, which the table shows locked), its refusal by its role.
    expect(reply.rows[0]).toMatchObject({
      name: "Renamed",
      user_type: "super_admin",
      loaded: { user_type: "super_admin" },
    });
    expect(reply.errors[0]).toEqual({ user_type: ["Only a System Admin may change a System Admin"] });
  });

  it("never rewrites a row the user did not touch, even when it changed on the server meanwhile", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const target = users.find((u) => u.email === "client.admin@example.com")!;
    // Someone else renames the user after our page loaded…
    await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "save",
              ...userFields(0, { ...target, name: "Renamed Elsewhere" }, target),
            },
            cookie,
          ),
        ),
      ),
    );
    // …and we save the page as loaded, with one new row: the stale row is not sent.
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "save",
              ...userFields(0, { email: "another.new@example.com", name: "Another", user_type: "user" }),
              ...untouchedUser(1, target),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response).toHaveRedirect();
    await expect(response).toSendToast({ type: "success", description: "1 user saved" });
    expect((await listUsers(cookie)).users.find((u) => u.id === target.id)?.name).toBe("Renamed Elsewhere");
  });

  it("keeps what another page saved to a row since this one loaded, and flags a cell both changed", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const target = users.find((u) => u.email === "client.user@example.com")!;
    const save = (values: Partial<ListedUser>, loaded = target) =>
      settle(() =>
        usersAction(
          args(formRequest("/users", { intent: "save", ...userFields(0, { ...target, ...values }, loaded) }, cookie)),
        ),
      );
    // Another page renames the user; this one, loaded before, changes only the type: the name stays.
    await save({ name: "Named Elsewhere" });
    await expect(await save({ user_type: "admin" })).toSendToast({ type: "success", description: "1 user saved" });
    expect((await listUsers(cookie)).users.find((u) => u.id === target.id)).toMatchObject({
      name: "Named Elsewhere",
      user_type: "admin",
    });
    // Both change the name: this page is told beside it, its text kept.
    const clash = await save({ name: "Named Here" });
    expect(clash.status).toBe(409);
    const reply = await clash.json();
    expect(reply.errors[0].name).toEqual([
      "Changed to “Named Elsewhere” since you opened this page; save again to keep yours",
    ]);
    expect(reply.rows[0]).toMatchObject({ name: "Named Here", user_type: "admin" });
    await save(
      target,
      (await listUsers(cookie)).users.find((u) => u.id === target.id)!,
    );
  });

  it("answers 400 with the spec's messages for a row missing its fields, keeping every posted row", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const fields = {
      intent: "save",
      ...userFields(0, { email: "", name: "", user_type: "" }),
      ...userFields(1, { email: "half.done@example.com", name: "Half Done", user_type: "user" }),
      ...untouchedUser(2, users[0]),
    };
    const response = await settle(() => usersAction(args(formRequest("/users", fields, cookie))));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toEqual({
      email: ["This string is required"],
      name: ["This string is required"],
      user_type: ["This string is required"],
    });
    expect(body.errors.slice(1)).toEqual([null, null]);
    expect(body.formError).toBe("Fix the highlighted rows before saving.");
    expect(body.rows).toEqual([
      { id: "", email: "", name: "", user_type: "", editing: false, loaded: null },
      { id: "", email: "half.done@example.com", name: "Half Done", user_type: "user", editing: false, loaded: null },
      {
        id: String(users[0].id),
        email: users[0].email,
        name: users[0].name,
        user_type: users[0].user_type,
        editing: false,
        loaded: { email: users[0].email, name: users[0].name, user_type: users[0].user_type },
      },
    ]);
    // Nothing was saved: one bad row stops the save.
    expect((await listUsers(cookie)).users.some((u) => u.email === "half.done@example.com")).toBe(false);
  });

  it("puts the API's own 400 errors on the form row they belong to", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const viewer = users.find((u) => u.email === "client.user@example.com")!;
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "save",
              ...untouchedUser(0, users[0]),
              ...untouchedUser(1, users[1]),
              ...userFields(2, { email: "not-an-email", name: "Typo", user_type: "user" }),
              ...userFields(3, { email: viewer.email, name: "Duplicate", user_type: "user" }),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    // The API saw two rows (users.0, users.1); they are form rows 2 and 3.
    expect(body.errors[0]).toBeNull();
    expect(body.errors[1]).toBeNull();
    expect(body.errors[2]).toEqual({ email: ["Enter a valid email address"] });
    expect(body.errors[3]).toBeNull();
    expect(body.rows[2].email).toBe("not-an-email");
    expect(body.rows).toHaveLength(4);
  });

  it("maps the API's per-row refusals (rows checked against each other) to the right form row", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "save",
              ...untouchedUser(0, users[0]),
              ...userFields(1, { email: "twice@example.com", name: "First", user_type: "user" }),
              ...untouchedUser(2, users[1]),
              ...userFields(3, { email: "twice@example.com", name: "Second", user_type: "user" }),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([null, null, null, { email: ["twice@example.com appears twice"] }]);
    expect(body.formError).toBe("Fix the highlighted rows before saving.");
  });

  it("add-row (no JavaScript) returns the posted rows with an empty one at the top, saving nothing", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "add-row",
              ...userFields(0, { email: "typed.but.unsaved@example.com", name: "Typed", user_type: "user" }),
              ...untouchedUser(1, users[0]),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.rows.map((r: { email: string }) => r.email)).toEqual([
      "",
      "typed.but.unsaved@example.com",
      users[0].email,
    ]);
    // The spec's default user_type is user: a new row never starts on "Select a role".
    expect(body.rows[0]).toEqual({ id: "", email: "", name: "", user_type: "user", editing: true, loaded: null });
    expect(body.errors).toEqual([null, null, null]);
    expect((await listUsers(cookie)).users.some((u) => u.email === "typed.but.unsaved@example.com")).toBe(false);
  });

  it("discard-row (no JavaScript) drops only a new row", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const rows = { ...userFields(0, { email: "", name: "", user_type: "" }), ...untouchedUser(1, users[0]) };
    const discardNew = await (
      await settle(() => usersAction(args(formRequest("/users", { intent: "discard-row:0", ...rows }, cookie))))
    ).json();
    expect(discardNew.rows.map((r: { email: string }) => r.email)).toEqual([users[0].email]);
    const discardExisting = await (
      await settle(() => usersAction(args(formRequest("/users", { intent: "discard-row:1", ...rows }, cookie))))
    ).json();
    expect(discardExisting.rows).toHaveLength(2);
  });

  describe("opening rows without JavaScript", () => {
    /** Row 0 opened and half-edited, row 1 as loaded; `post` sends them with an intent. */
    async function openedRows() {
      const cookie = await signInToConsole(host, "admin@example.com");
      const { users } = await listUsers(cookie);
      const typed = { ...users[0], name: "Half-typed new name" };
      const rows = { ...userFields(0, typed, users[0]), "users[0].editing": "true", ...untouchedUser(1, users[1]) };
      const post = (intent: string) =>
        settle(() => usersAction(args(formRequest("/users", { intent, ...rows }, cookie))));
      const savedName = async () => (await listUsers(cookie)).users.find((u) => u.id === users[0].id)?.name;
      return { users, post, savedName };
    }

    it("edit-row opens an existing row as inputs, keeping what is typed in the others, saving nothing", async () => {
      const { users, post, savedName } = await openedRows();
      const opened = await (await post("edit-row:1")).json();
      expect(opened.rows.map((r: { editing: boolean }) => r.editing)).toEqual([true, true]);
      expect(opened.rows[0].name).toBe("Half-typed new name");
      expect(await savedName()).toBe(users[0].name);
    });

    it("cancel-edit puts a row back as loaded, saving nothing", async () => {
      const { users, post, savedName } = await openedRows();
      const cancelled = await (await post("cancel-edit:0")).json();
      expect(cancelled.rows[0]).toMatchObject({ name: users[0].name, editing: false });
      expect(cancelled.rows[1].editing).toBe(false);
      expect(await savedName()).toBe(users[0].name);
    });

    it("refuses an intent of another table with 400, saving nothing", async () => {
      const { users, post, savedName } = await openedRows();
      expect((await post("delete-row:0")).status).toBe(400);
      expect(await savedName()).toBe(users[0].name);
    });
  });

  it("refuses an unknown intent with 400, rows intact", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const response = await settle(() =>
      usersAction(
        args(
          formRequest(
            "/users",
            {
              intent: "launch",
              ...userFields(0, { email: "x@example.com", name: "X", user_type: "user" }),
            },
            cookie,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).rows[0].email).toBe("x@example.com");
  });

  it("redirects with an info toast when nothing changed", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const { users } = await listUsers(cookie);
    const response = await settle(() =>
      usersAction(args(formRequest("/users", { intent: "save", ...untouchedUser(0, users[0]) }, cookie))),
    );
    expect(response).toHaveRedirect();
    await expect(response).toSendToast({ type: "info", description: "No changes to save" });
  });
});

describe("Access Control (/{url_code}/access-control)", () => {
  it("lists the client's people with their role and the roles the caller may grant", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { client, users, assignableRoles } = await listAccess(cookie);
    expect(client.name).toBe("Northfield University");
    expect(assignableRoles).toEqual(["client_user", "client_admin"]);
    expect(users.find((u) => u.email === "client.user@example.com")?.app_user?.role).toBe("client_user");
  });

  it("add-row gives a new row the spec's defaults: user_type user, role client_user", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postAccess({ intent: "add-row" }, cookie);
    expect(response.status).toBe(200);
    expect((await response.json()).rows).toEqual([
      {
        id: "",
        email: "",
        name: "",
        user_type: "user",
        role: "client_user",
        remove: false,
        editing: true,
        loaded: null,
      },
    ]);
  });

  it("grants access to a new person with the defaults, then removes it", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await listAccess(cookie);
    const granted = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "New.Advisor@Example.com", name: "New Advisor", role: "client_user" }),
        ...Object.assign(
          {},
          ...before.users.map((u, i) =>
            accessFields(i + 1, { id: u.id, email: u.email, name: u.name, role: u.app_user!.role }, u),
          ),
        ),
      },
      cookie,
    );
    expect(granted).toHaveRedirect("/northfield/access-control");
    await expect(granted).toSendToast({ type: "success", description: "Access saved" });

    const after = await listAccess(cookie);
    const advisor = after.users.find((u) => u.email === "new.advisor@example.com")!;
    expect(advisor).toMatchObject({ name: "New Advisor", user_type: "user", app_user: { role: "client_user" } });
    expect(advisor.app_user!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const removal = accessFields(
      0,
      { id: advisor.id, email: advisor.email, name: advisor.name, role: "client_user", remove: true },
      advisor,
    );
    const removed = await postAccess({ intent: "save", ...removal, removals_confirmed: String(advisor.id) }, cookie);
    expect(removed).toHaveRedirect();
    expect((await listAccess(cookie)).users.some((u) => u.id === advisor.id)).toBe(false);
  });

  it("asks before a removal the page has not had confirmed (a form posted without JavaScript), saving nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const granted = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "to.confirm@example.com", name: "To Confirm", role: "client_user" }),
      },
      cookie,
    );
    expect(granted).toHaveRedirect();
    const person = (await listAccess(cookie)).users.find((u) => u.email === "to.confirm@example.com")!;
    const removal = {
      intent: "save",
      ...accessFields(
        0,
        { id: person.id, email: person.email, name: "Renamed Meanwhile", role: "client_user", remove: true },
        person,
      ),
    };

    const asked = await postAccess(removal, cookie);
    expect(asked.status).toBe(200);
    const answer = await asked.json();
    expect(answer.toConfirm).toEqual([String(person.id)]);
    expect(answer.rows[0]).toMatchObject({ id: String(person.id), remove: true, name: "Renamed Meanwhile" });
    expect((await listAccess(cookie)).users.some((u) => u.id === person.id)).toBe(true);

    // Another row's confirmation does not stand for this one.
    const otherConfirmed = await postAccess({ ...removal, removals_confirmed: `${person.id + 1000},x` }, cookie);
    expect((await otherConfirmed.json()).toConfirm).toEqual([String(person.id)]);

    // The field is bounded (past it the form is refused; a megabyte is past the form's own bound),
    // and one holding a NUL byte confirms nothing.
    const pastBound = await postAccess({ ...removal, removals_confirmed: "1,".repeat(15_000) }, cookie);
    expect(pastBound.status).toBe(400);
    const megabyte = await postAccess({ ...removal, removals_confirmed: "1,".repeat(500_000) }, cookie);
    expect(megabyte.status).toBe(413);
    const withNul = await postAccess({ ...removal, removals_confirmed: `${person.id}\u0000` }, cookie);
    expect((await withNul.json()).toConfirm).toEqual([String(person.id)]);
    expect((await listAccess(cookie)).users.some((u) => u.id === person.id)).toBe(true);

    const confirmed = await postAccess({ ...removal, removals_confirmed: String(person.id) }, cookie);
    expect(confirmed).toHaveRedirect("/northfield/access-control");
    await expect(confirmed).toSendToast({ type: "success", description: "Access saved" });
    expect((await listAccess(cookie)).users.some((u) => u.id === person.id)).toBe(false);
  });

  it("adds another client's member exactly as a new address: the name typed, no trace of the account elsewhere", async () => {
    // A person of Harbor Outfitters only, under the name Harbor gave them (added by staff).
    const call = apiCaller(host);
    const staff = (await signInAs(host, "admin@example.com")).user_token;
    const apps = (await call("GET", "/v1/apps", { token: staff })).body.apps as { id: number; url_code: string }[];
    const harbor = apps.find((a) => a.url_code === "shopharbor-outfitters")!;
    const harborAccess = async () =>
      (await call("GET", `/v1/apps/${harbor.id}/users`, { token: staff })).body.users as ListedUser[];
    expect(
      (
        await call("POST", `/v1/apps/${harbor.id}/users/upsert`, {
          token: staff,
          body: {
            users: [{ email: "harbor.third@example.com", name: "Real Harbor Name", app_user: { role: "client_user" } }],
          },
        })
      ).status,
    ).toBe(200);
    const atHarbor = (await harborAccess()).find((u) => u.email === "harbor.third@example.com")!;

    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await listAccess(cookie);
    const saved = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "harbor.third@example.com", name: "Typed Third", role: "client_user" }),
        ...accessFields(1, { email: "brand.new.person@example.com", name: "Typed New", role: "client_user" }),
      },
      cookie,
    );
    expect(saved).toHaveRedirect();
    await expect(saved).toSendToast({ type: "success", description: "Access saved" });

    const { users: after } = await listAccess(cookie);
    const shown = ["harbor.third@example.com", "brand.new.person@example.com"].map((email) =>
      after.find((u) => u.email === email)!,
    );
    // All but the address and the id (which the next assertion reads), with whether Onboarded On is the account's age.
    const [existing, fresh] = shown.map(({ email: _email, id: _id, created_at, app_user, ...rest }) => ({
      ...rest,
      onboarded: created_at === app_user!.created_at,
    }));
    expect(existing).toEqual({ ...fresh, name: "Typed Third" });
    expect(fresh).toEqual({ name: "Typed New", user_type: "user", onboarded: true });
    // Both rows are the two newest grants, in the order they were sent: an id says nothing of the account's age.
    const newest = Math.max(atHarbor.id, ...before.users.map((u) => u.id));
    expect(shown.map((u) => u.id)).toEqual([newest + 1, newest + 2]);
    // Harbor still knows the person by its own name, and the account keeps it.
    expect((await harborAccess()).find((u) => u.email === "harbor.third@example.com")?.name).toBe("Real Harbor Name");
    const accounts = (await call("GET", "/v1/users", { token: staff })).body.users as ListedUser[];
    expect(accounts.find((u) => u.email === "harbor.third@example.com")?.name).toBe("Real Harbor Name");
  });

  it("checks email, name and role on the server and keeps the posted rows", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "", name: "", role: "" }),
      },
      cookie,
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toEqual({
      email: ["This string is required"],
      name: ["This string is required"],
      role: ["This string is required"],
    });
    expect(body.rows[0]).toMatchObject({ email: "", name: "", role: "" });
  });

  it("shows the API's refusal next to the cell: a client admin may not rename an existing person", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { users } = await listAccess(cookie);
    const viewer = users.find((u) => u.email === "client.user@example.com")!;
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { id: viewer.id, email: viewer.email, name: "Someone Else", role: "client_user" }, viewer),
      },
      cookie,
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toEqual({ name: ["Only staff can change an existing user's name or email"] });
    expect(body.rows[0].name).toBe("Someone Else");
  });

  it("refuses a new row with the address of someone who already has access, beside its email, keeping what was typed", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { users } = await listAccess(cookie);
    const viewer = users.find((u) => u.email === "client.user@example.com")!;
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: " Client.User@Example.com ", name: "Typed Name", role: "client_admin" }),
        ...Object.assign(
          {},
          ...users.map((u, i) =>
            accessFields(i + 1, { id: u.id, email: u.email, name: u.name, role: u.app_user!.role }, u),
          ),
        ),
      },
      cookie,
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([
      { email: ["client.user@example.com already has access to this client; change their role on their own row"] },
      ...users.map(() => null),
    ]);
    expect(body.formError).toBe("Fix the highlighted rows before saving.");
    expect(body.rows[0]).toMatchObject({
      id: "",
      email: " Client.User@Example.com ",
      name: "Typed Name",
      role: "client_admin",
    });
    expect(body.rows).toHaveLength(users.length + 1);
    // Nothing saved: the member keeps their role and the name this client gave them.
    expect((await listAccess(cookie)).users.find((u) => u.id === viewer.id)).toMatchObject({
      name: viewer.name,
      app_user: { role: "client_user" },
    });
  });

  it("refuses two new rows with the same address in one save, beside the later one's email", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "same.person@example.com", name: "Same Person", role: "client_user" }),
        ...accessFields(1, { email: "Same.Person@example.com", name: "Same Again", role: "client_admin" }),
      },
      cookie,
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([null, { email: ["same.person@example.com appears twice"] }]);
    expect(body.rows.map((r: { name: string }) => r.name)).toEqual(["Same Person", "Same Again"]);
    expect((await listAccess(cookie)).users.some((u) => u.email === "same.person@example.com")).toBe(false);
  });

  it("refuses a removal that does not carry the loaded person (a tampered post), saving nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { users } = await listAccess(cookie);
    const viewer = users.find((u) => u.email === "client.user@example.com")!;
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, {
          id: viewer.id,
          email: viewer.email,
          name: viewer.name,
          role: "client_user",
          remove: true,
        }),
      },
      cookie,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toEqual({ row: ["This row cannot be read; reload the page"] });
    expect((await listAccess(cookie)).users.some((u) => u.id === viewer.id)).toBe(true);
  });

  it("answers 403 to a client user's save: they may only look", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const { assignableRoles } = await listAccess(cookie);
    expect(assignableRoles).toEqual([]);
    const response = await postAccess(
      {
        intent: "save",
        ...accessFields(0, { email: "sneaky@example.com", name: "Sneaky", role: "client_admin" }),
      },
      cookie,
    );
    expect(response.status).toBe(403);
    const addRow = await postAccess({ intent: "add-row" }, cookie);
    expect(addRow.status).toBe(403);
    const edit = await postAccess({ intent: "edit-row:0" }, cookie);
    expect(edit.status).toBe(403);
  });

  it("opening a row with a made-up index, a NUL byte or a megabyte in its fields is answered without a 500 and saves nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [person] = (await listAccess(cookie)).users;
    const row = {
      ...accessFields(
        0,
        { id: person.id, email: person.email, name: "x".repeat(1_000_000), role: "client_user" },
        person,
      ),
      "users[0].editing": "true\u0000",
    };
    for (const intent of ["edit-row:99999", "cancel-edit:0", "edit-row:-1", "edit-row:0\u0000"]) {
      const response = await postAccess({ intent, ...row }, cookie);
      expect(response.status).toBeLessThan(500);
    }
    const saved = await postAccess({ intent: "save", ...row, "users[0].name": "Bad\u0000Name" }, cookie);
    expect(saved.status).toBeGreaterThanOrEqual(400);
    expect(saved.status).toBeLessThan(500);
    expect((await listAccess(cookie)).users.find((u) => u.id === person.id)?.name).toBe(person.name);
  });

  it("answers 404 for a client the user holds no role in", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const params = { appName: "shopharbor-outfitters" };
    expect(
      (await settle(() => accessLoader(args(getRequest("/shopharbor-outfitters/access-control", cookie), params))))
        .status,
    ).toBe(404);
    const response = await settle(() =>
      accessAction(args(formRequest("/shopharbor-outfitters/access-control", { intent: "add-row" }, cookie), params)),
    );
    expect(response.status).toBe(404);
  });
});
