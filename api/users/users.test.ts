import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
const token: Record<string, string> = {};
let northfieldId: number;
let harborId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  await host.deps.db.insert(users).values({ email: "staff@example.com", name: "Staff", userType: "admin" });
  for (const email of [
    "admin@example.com",
    "staff@example.com",
    "client.admin@example.com",
    "client.user@example.com",
  ]) {
    token[email.split("@")[0]] = (await signInAs(host, email)).user_token;
  }
  const apps = await host.deps.db.select().from(clientApps);
  northfieldId = apps.find((a) => a.urlCode === "northfield")!.id;
  harborId = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
});
afterAll(() => host?.close());

/** Northfield's access rows saved by the caller of `token`: POST /v1/apps/{id}/users/upsert. */
const upsertNorthfield = (token: string, users: unknown[]) =>
  call("POST", `/v1/apps/${northfieldId}/users/upsert`, { token, body: { users } });

describe("users (staff screen)", () => {
  it("lists users with the role options of the caller's standing", async () => {
    const asSuper = await call("GET", "/v1/users", { token: token.admin });
    expect(asSuper.body.assignable_user_types).toEqual(["user", "admin", "super_admin"]);
    expect(asSuper.body.users[0]).toEqual({
      id: expect.any(Number),
      email: expect.any(String),
      name: expect.any(String),
      user_type: expect.any(String),
      created_at: expect.any(String),
    });
    expect((await call("GET", "/v1/users", { token: token.staff })).body.assignable_user_types).toEqual([
      "user",
      "admin",
    ]);
    expect((await call("GET", "/v1/users", { token: token["client.admin"] })).status).toBe(403);
  });

  it("creates and updates users in one save; a new row never overwrites an existing account", async () => {
    const staffId = (await host.deps.db.select().from(users).where(eq(users.email, "staff@example.com")))[0].id;
    const saved = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: {
        users: [
          { email: "New.Person@Example.com", name: "New Person", user_type: "user" },
          { id: staffId, email: "staff@example.com", name: "Staff Renamed", user_type: "admin" },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.users.map((u: { email: string; name: string }) => `${u.email} ${u.name}`)).toEqual([
      "new.person@example.com New Person",
      "staff@example.com Staff Renamed",
    ]);
    const clash = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: { users: [{ email: "staff@example.com", name: "Impostor", user_type: "user" }] },
    });
    expect(clash.body.errors["users.0.email"]).toEqual(["staff@example.com belongs to another user"]);
  });

  it("takes an address on an internationalised domain, in Unicode or ASCII form, as one account", async () => {
    const saved = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: {
        users: [
          { email: "wang@xn--fsqu00a.xn--fiqs8s", name: "王小明", user_type: "user" },
          { email: "Ivan@Пример.РФ", name: "Иван Петров", user_type: "user" },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.users.map((u: { email: string }) => u.email)).toEqual([
      "ivan@xn--e1afmkfd.xn--p1ai",
      "wang@xn--fsqu00a.xn--fiqs8s",
    ]);
    // The same address typed the other way is the same account, to save and to sign in with.
    const again = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: { users: [{ email: "wang@例子.中国", name: "Someone Else", user_type: "user" }] },
    });
    expect(again.body.errors["users.0.email"]).toEqual(["wang@xn--fsqu00a.xn--fiqs8s belongs to another user"]);
    expect((await call("POST", "/auth/dev", { body: { email: "ivan@пример.рф" } })).status).toBe(200);
    expect((await call("POST", "/auth/dev", { body: { email: "wang@xn--fsqu00a.xn--fiqs8s" } })).status).toBe(200);
  });

  it("refuses what is no address, on any domain", async () => {
    for (const email of [
      "wang@例子",
      "user@example.c",
      "user@example.123",
      "user@пример.р",
      "user@xn--zz.com",
      "user@exa mple.com",
      "user@.рф",
      "user@example.xn--",
    ]) {
      const refused = await call("POST", "/v1/users/upsert", {
        token: token.admin,
        body: { users: [{ email, name: "Nobody", user_type: "user" }] },
      });
      expect(refused.body.errors?.["users.0.email"], email).toEqual(["Enter a valid email address"]);
    }
  });

  it("names every bad row and saves none of them", async () => {
    const result = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: {
        users: [
          { email: "fine@example.com", name: "Fine", user_type: "user" },
          { email: "", name: "", user_type: "user" },
          { email: "client.user@example.com", name: "Dup", user_type: "user", id: 999999 },
          { email: `${"a".repeat(320)}@example.com`, name: "n".repeat(201), user_type: "user" },
        ],
      },
    });
    expect(result.status).toBe(400);
    expect(result.body.errors).toMatchObject({
      "users.1.email": ["This string is required"],
      "users.1.name": ["This string is required"],
      // Too long is said as too long, not as missing.
      "users.3.name": ["Use at most 200 characters"],
    });
    expect(result.body.errors["users.3.email"][0]).toBe("Use at most 320 characters");
    expect((await host.deps.db.select().from(users).where(eq(users.email, "fine@example.com"))).length).toBe(0);
  });

  it("stops admins at admin: no super_admin grants, no edits of super_admin rows, no self-demotion", async () => {
    const grant = await call("POST", "/v1/users/upsert", {
      token: token.staff,
      body: { users: [{ email: "x@example.com", name: "X", user_type: "super_admin" }] },
    });
    expect(grant.body.errors["users.0.user_type"]).toEqual(["You may not give the role System Admin"]);
    const adminId = (await host.deps.db.select().from(users).where(eq(users.email, "admin@example.com")))[0].id;
    const touch = await call("POST", "/v1/users/upsert", {
      token: token.staff,
      body: { users: [{ id: adminId, email: "admin@example.com", name: "Hijacked", user_type: "user" }] },
    });
    expect(touch.body.errors["users.0.user_type"]).toContain("Only a System Admin may change a System Admin");
    const self = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: { users: [{ id: adminId, email: "admin@example.com", name: "Me", user_type: "user" }] },
    });
    expect(self.body.errors["users.0.user_type"]).toEqual(["You cannot change your own role"]);
  });
});

describe("access control (per client)", () => {
  it("lists the client's users with app_user.role; client users may read", async () => {
    const list = await call("GET", `/v1/apps/${northfieldId}/users`, { token: token["client.user"] });
    expect(
      list.body.users.map((u: { email: string; app_user: { role: string } }) => `${u.email}:${u.app_user.role}`),
    ).toEqual(["client.admin@example.com:client_admin", "client.user@example.com:client_user"]);
    expect(list.body.assignable_roles).toEqual([]);
    expect(
      (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token["client.admin"] })).body.assignable_roles,
    ).toEqual(["client_user", "client_admin"]);
  });

  it("lets a client admin grant access to a new person (a new user account) and remove it again", async () => {
    const granted = await upsertNorthfield(token["client.admin"], [
      { email: "advisor@northfield.edu", name: "Ada Advisor" },
    ]);
    expect(granted.status).toBe(200);
    expect(granted.body.users.find((u: { email: string }) => u.email === "advisor@northfield.edu")).toMatchObject({
      user_type: "user",
      app_user: { role: "client_user" },
    });
    const removed = await upsertNorthfield(token["client.admin"], [
      { email: "advisor@northfield.edu", name: "Ada Advisor", action: "delete" },
    ]);
    expect(removed.body.users.map((u: { email: string }) => u.email)).not.toContain("advisor@northfield.edu");
  });

  it("refuses grants above the caller, edits of shared accounts, and other clients", async () => {
    const tooHigh = await upsertNorthfield(token["client.admin"], [
      { email: "boss@example.com", name: "Boss", app_user: { role: "admin" } },
    ]);
    expect(tooHigh.body.errors["users.0.app_user.role"]).toEqual(["You may not give the role Admin"]);
    // A member staff made an Admin here is out of a Client Admin's reach, said in the screen's words.
    expect(
      (await upsertNorthfield(token.admin, [{ email: "lead@example.com", name: "Lead", app_user: { role: "admin" } }]))
        .status,
    ).toBe(200);
    const lead = (
      await call("GET", `/v1/apps/${northfieldId}/users`, { token: token["client.admin"] })
    ).body.users.find((u: { email: string }) => u.email === "lead@example.com");
    const demote = await upsertNorthfield(token["client.admin"], [
      { id: lead.id, email: lead.email, name: lead.name, app_user: { role: "client_user" } },
    ]);
    expect(demote.body.errors["users.0.app_user.role"]).toEqual(["You may not change the access of an Admin"]);
    const listed = (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token["client.admin"] })).body.users;
    const viewerId = listed.find((u: { email: string }) => u.email === "client.user@example.com").id;
    const rename = await upsertNorthfield(token["client.admin"], [
      { id: viewerId, email: "client.user@example.com", name: "Renamed", app_user: { role: "client_user" } },
    ]);
    expect(rename.body.errors["users.0.name"]).toEqual(["Only staff can change an existing user's name or email"]);
    // Rows resent as listed (with their ids) change nothing, the caller's own row included.
    const unchanged = await call("POST", `/v1/apps/${northfieldId}/users/upsert`, {
      token: token["client.admin"],
      body: {
        users: listed.map((u: { id: number; email: string; name: string; app_user: { role: string } }) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          app_user: { role: u.app_user.role },
        })),
      },
    });
    expect(unchanged.status).toBe(200);
    expect(
      (
        await call("POST", `/v1/apps/${harborId}/users/upsert`, {
          token: token["client.admin"],
          body: { users: [{ email: "a@b.co", name: "A" }] },
        })
      ).status,
    ).toBe(404);
    expect((await upsertNorthfield(token["client.user"], [{ email: "a@b.co", name: "A" }])).status).toBe(403);
  });
});

describe("adding someone who already has access", () => {
  const membersOfNorthfield = async () =>
    (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token.admin })).body.users as {
      id: number;
      email: string;
      name: string;
      app_user: { role: string };
    }[];

  it("refuses a new row naming a member (any case, any spaces) on its email, for a client admin and staff alike, saving nothing", async () => {
    const before = await membersOfNorthfield();
    for (const caller of ["client.admin", "admin"]) {
      const refused = await upsertNorthfield(token[caller], [
        { email: "fresh.face@example.com", name: "Fresh Face", app_user: { role: "client_user" } },
        { email: "  Client.User@Example.COM ", name: "Typed Name", app_user: { role: "client_admin" } },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({
        "users.1.email": [
          "client.user@example.com already has access to this client; change their role on their own row",
        ],
      });
      expect(await membersOfNorthfield()).toEqual(before);
    }
    // The same row resent untouched is refused too: only a row with the member's id speaks for them.
    const viewer = before.find((u) => u.email === "client.user@example.com")!;
    const resent = await upsertNorthfield(token["client.admin"], [
      { email: viewer.email, name: viewer.name, app_user: { role: viewer.app_user.role } },
    ]);
    expect(resent.body.errors).toEqual({
      "users.0.email": [
        "client.user@example.com already has access to this client; change their role on their own row",
      ],
    });
  });

  it("refuses two new rows with the same address in one save, on the later one, saving nothing", async () => {
    const before = await membersOfNorthfield();
    for (const caller of ["client.admin", "admin"]) {
      const refused = await upsertNorthfield(token[caller], [
        { email: "twin@example.com", name: "First Twin", app_user: { role: "client_user" } },
        { email: "fine.one@example.com", name: "Fine", app_user: { role: "client_user" } },
        { email: " TWIN@example.com", name: "Second Twin", app_user: { role: "client_admin" } },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ "users.2.email": ["twin@example.com appears twice"] });
    }
    expect(await membersOfNorthfield()).toEqual(before);
    expect(await host.deps.db.select().from(users).where(eq(users.email, "twin@example.com"))).toEqual([]);
  });

  it("still changes a member's role through their own row (by its id)", async () => {
    const viewer = (await membersOfNorthfield()).find((u) => u.email === "client.user@example.com")!;
    const promoted = await upsertNorthfield(token["client.admin"], [
      { id: viewer.id, email: viewer.email, name: viewer.name, app_user: { role: "client_admin" } },
    ]);
    expect(promoted.status).toBe(200);
    expect((await membersOfNorthfield()).find((u) => u.id === viewer.id)?.app_user.role).toBe("client_admin");
    const restored = await call("POST", `/v1/apps/${northfieldId}/users/upsert`, {
      token: token.admin,
      body: { users: [{ id: viewer.id, email: viewer.email, name: viewer.name, app_user: { role: "client_user" } }] },
    });
    expect(restored.status).toBe(200);
  });
});

describe("granting access to an existing account", () => {
  it("grants without renaming the account when the row has no id: the client knows the person by the name typed", async () => {
    const granted = await call("POST", `/v1/apps/${harborId}/users/upsert`, {
      token: token.admin,
      body: {
        users: [{ email: "client.user@example.com", name: "Whatever Was Typed", app_user: { role: "client_user" } }],
      },
    });
    expect(granted.status).toBe(200);
    expect(granted.body.users.find((u: { email: string }) => u.email === "client.user@example.com").name).toBe(
      "Whatever Was Typed",
    );
    expect((await host.deps.db.select().from(users).where(eq(users.email, "client.user@example.com")))[0].name).toBe(
      "Jordan Viewer",
    );
  });

  it("lets staff rename a member in one client (this client's name) and re-address the account, by the membership's id", async () => {
    const listed = (await call("GET", `/v1/apps/${harborId}/users`, { token: token.admin })).body.users;
    const member = listed.find((u: { email: string }) => u.email === "client.user@example.com");
    const saved = await call("POST", `/v1/apps/${harborId}/users/upsert`, {
      token: token.admin,
      body: {
        users: [
          { id: member.id, email: "jordan@example.com", name: "Jordan at Harbor", app_user: { role: "client_admin" } },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.users.find((u: { id: number }) => u.id === member.id)).toMatchObject({
      email: "jordan@example.com",
      name: "Jordan at Harbor",
      app_user: { role: "client_admin" },
    });
    expect((await host.deps.db.select().from(users).where(eq(users.email, "jordan@example.com")))[0].name).toBe(
      "Jordan Viewer",
    );
    const northfield = (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token.admin })).body.users;
    expect(northfield.find((u: { email: string }) => u.email === "jordan@example.com").name).toBe("Jordan Viewer");
    const taken = await call("POST", `/v1/apps/${harborId}/users/upsert`, {
      token: token.admin,
      body: {
        users: [
          { id: member.id, email: "staff@example.com", name: "Jordan at Harbor", app_user: { role: "client_admin" } },
        ],
      },
    });
    expect(taken.body.errors).toEqual({ "users.0.email": ["staff@example.com belongs to another user"] });
  });

  it("keeps a member's role when a row with their id leaves the role out; a new row without one grants client_user", async () => {
    const listed = (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token.admin })).body.users;
    const member = listed.find((u: { email: string }) => u.email === "client.admin@example.com");
    expect(member.app_user.role).toBe("client_admin");
    const renamed = await upsertNorthfield(token.admin, [
      { id: member.id, email: "client.admin@example.com", name: "Casey, renamed" },
      { email: "new.without.role@example.com", name: "New" },
    ]);
    expect(renamed.status).toBe(200);
    const roleOf = (email: string) =>
      renamed.body.users.find((u: { email: string }) => u.email === email).app_user.role;
    expect(roleOf("client.admin@example.com")).toBe("client_admin");
    expect(roleOf("new.without.role@example.com")).toBe("client_user");
  });

  it("refuses staff re-addressing a System Admin's account through a client's member row, saving nothing", async () => {
    const harborUsers = () => call("GET", `/v1/apps/${harborId}/users`, { token: token.staff });
    const upsertHarbor = (users: unknown[]) =>
      call("POST", `/v1/apps/${harborId}/users/upsert`, { token: token.staff, body: { users } });
    const granted = await upsertHarbor([
      { email: "admin@example.com", name: "The admin at Harbor", app_user: { role: "client_user" } },
    ]);
    expect(granted.status).toBe(200);
    const member = (await harborUsers()).body.users.find((u: { email: string }) => u.email === "admin@example.com");
    const taken = await upsertHarbor([
      {
        id: member.id,
        email: "someone.else@example.com",
        name: "The admin at Harbor",
        app_user: { role: "client_user" },
      },
    ]);
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ "users.0.email": ["Only a System Admin may change a System Admin's email"] });
    const [account] = await host.deps.db.select().from(users).where(eq(users.userType, "super_admin"));
    expect(account.email).toBe("admin@example.com");
    // The System Admin's membership row itself still saves when it keeps the address.
    const renamed = await upsertHarbor([
      { id: member.id, email: "admin@example.com", name: "Admin, Harbor", app_user: { role: "client_user" } },
    ]);
    expect(renamed.status).toBe(200);
  });

  it("refuses two members re-addressed to one new address in one save, saying so at the second", async () => {
    const listed = (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token.admin })).body.users as {
      id: number;
      email: string;
      name: string;
    }[];
    const [first, second] = listed.filter((u) => !u.email.startsWith("admin@"));
    const twice = await upsertNorthfield(token.admin, [
      { id: first.id, email: "same.new@example.com", name: first.name, app_user: { role: "client_admin" } },
      { id: second.id, email: "same.new@example.com", name: second.name, app_user: { role: "client_user" } },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({ "users.1.email": ["same.new@example.com appears twice"] });
    expect((await host.deps.db.select().from(users).where(eq(users.email, "same.new@example.com"))).length).toBe(0);
  });
});

describe("two Client Admins changing each other's access at once", () => {
  it("runs the saves one after the other, each as its caller stands then: the second, no longer a Client Admin, is refused", async () => {
    const { body: made } = await upsertNorthfield(token.admin, [
      { email: "first.head@example.com", name: "First Head", app_user: { role: "client_admin" } },
      { email: "second.head@example.com", name: "Second Head", app_user: { role: "client_admin" } },
    ]);
    const idOf = (email: string) => made.users.find((u: { email: string }) => u.email === email).id;
    const first = (await signInAs(host, "first.head@example.com")).user_token;
    const second = (await signInAs(host, "second.head@example.com")).user_token;
    const demote = (caller: string, email: string, name: string) =>
      upsertNorthfield(caller, [{ id: idOf(email), email, name, app_user: { role: "client_user" } }]);
    // Both requests are let in as Client Admins; their saves then take the client's access one at a time.
    const [one, two] = await Promise.all([
      demote(first, "second.head@example.com", "Second Head"),
      demote(second, "first.head@example.com", "First Head"),
    ]);
    // Whichever came second (on PostgreSQL either may) found its caller demoted by the first.
    expect([one.status, two.status].sort()).toEqual([200, 403]);
    const { body } = await call("GET", `/v1/apps/${northfieldId}/users`, { token: token.admin });
    const roleOf = (email: string) => body.users.find((u: { email: string }) => u.email === email).app_user.role;
    const firstWon = one.status === 200;
    expect(roleOf("first.head@example.com")).toBe(firstWon ? "client_admin" : "client_user");
    expect(roleOf("second.head@example.com")).toBe(firstWon ? "client_user" : "client_admin");
  });
});

describe("two Admins changing each other's type at once", () => {
  it("runs the Users saves one after the other: the second, no longer staff, is refused", async () => {
    const { body: made } = await call("POST", "/v1/users/upsert", {
      token: token.admin,
      body: {
        users: [
          { email: "first.staff@example.com", name: "First Staff", user_type: "admin" },
          { email: "second.staff@example.com", name: "Second Staff", user_type: "admin" },
        ],
      },
    });
    const idOf = (email: string) => made.users.find((u: { email: string }) => u.email === email).id;
    const first = (await signInAs(host, "first.staff@example.com")).user_token;
    const second = (await signInAs(host, "second.staff@example.com")).user_token;
    const demote = (caller: string, email: string, name: string) =>
      call("POST", "/v1/users/upsert", {
        token: caller,
        body: { users: [{ id: idOf(email), email, name, user_type: "user" }] },
      });
    const [one, two] = await Promise.all([
      demote(first, "second.staff@example.com", "Second Staff"),
      demote(second, "first.staff@example.com", "First Staff"),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 403]);
    const listed = (await call("GET", "/v1/users", { token: token.admin })).body.users;
    const typeOf = (email: string) => listed.find((u: { email: string }) => u.email === email).user_type;
    const firstWon = one.status === 200;
    expect(typeOf("first.staff@example.com")).toBe(firstWon ? "admin" : "user");
    expect(typeOf("second.staff@example.com")).toBe(firstWon ? "user" : "admin");
  });
});
