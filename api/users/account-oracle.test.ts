import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_A_MEMBER } from "./routes";
import { appUsers, clientApps, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

// Accounts are not an oracle (docs/decisions/016): what a Client Admin of one client is answered
// must not depend on whether a person has an account elsewhere (another client, staff) or none.

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
const token: Record<string, string> = {};
let northfieldId: number;
let harborId: number;

type Listed = { id: number; email: string; name: string; user_type: string; created_at: string; app_user: { role: string; created_at: string } };
type Row = { id?: number; email: string; name: string; user_type?: string; app_user?: { role: string }; action?: "add" | "delete" };

const accountOf = async (email: string) => (await host.deps.db.select().from(users).where(eq(users.email, email)))[0];
const clientsOf = async (email: string) => {
  const account = await accountOf(email);
  return account ? (await host.deps.db.select().from(appUsers).where(eq(appUsers.userId, account.id))).map((g) => g.appId).sort() : [];
};
const upsert = (as: string, appId: number, rows: Row[]) => call("POST", `/v1/apps/${appId}/users/upsert`, { token: token[as], body: { users: rows } });
const northfield = (rows: Row[]) => upsert("client.admin", northfieldId, rows);

/** The answer without the rows of the given addresses: what must not tell the cases apart. */
function withoutRows(answer: { status: number; body: { users?: Listed[] } & Record<string, unknown> }, ...emails: string[]) {
  const { users: listed, ...rest } = answer.body;
  return { status: answer.status, keys: Object.keys(answer.body).sort(), ...rest, users: listed?.filter((u) => !emails.includes(u.email)) };
}

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  const apps = await host.deps.db.select().from(clientApps);
  northfieldId = apps.find((a) => a.urlCode === "northfield")!.id;
  harborId = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
  const [, harborAdmin, harborMember] = await host.deps.db.insert(users).values([
    { email: "staff@example.com", name: "Staff Person", userType: "admin" },
    { email: "harbor.admin@example.com", name: "Harbor Admin", userType: "user" },
    { email: "harbor.member@example.com", name: "Harbor Member", userType: "user" },
  ]).returning();
  await host.deps.db.insert(appUsers).values([
    { appId: harborId, userId: harborAdmin.id, role: "client_admin" },
    { appId: harborId, userId: harborMember.id, role: "client_user" },
  ]);
  for (const email of ["client.admin@example.com", "harbor.admin@example.com"]) token[email.split("@")[0]] = (await signInAs(host, email)).user_token;
});
afterAll(() => host?.close());

describe("a Client Admin adding a person by address", () => {
  it("answers alike for an unknown address, another client's member and a staff account", async () => {
    const answers = [];
    for (const email of ["nobody.yet@example.com", "harbor.member@example.com", "staff@example.com"]) {
      const answer = await northfield([{ email, name: "Typed Name", app_user: { role: "client_user" } }]);
      expect(answer.status, email).toBe(200);
      const row = answer.body.users.find((u: Listed) => u.email === email);
      expect(row, email).toMatchObject({ email, app_user: { role: "client_user" } });
      answers.push({ rowKeys: Object.keys(row).sort(), ...withoutRows(answer, email) });
      // Taken away again, so that every answer is given on the same member list.
      expect((await northfield([{ email, name: "Typed Name", action: "delete" }])).status).toBe(200);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("refuses a role it may not give and an account type alike, whether or not the address has an account", async () => {
    const answers = [];
    for (const email of ["nobody.else@example.com", "harbor.member@example.com", "admin@example.com"]) {
      answers.push(await northfield([
        { email, name: "Typed Name", user_type: "admin", app_user: { role: "admin" } },
      ]));
    }
    expect(answers[0]).toEqual({ status: 400, body: { message: "Some rows could not be saved", errors: {
      "users.0.app_user.role": ["You may not give the role admin"], "users.0.user_type": ["You may not create a admin account"],
    } } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await accountOf("nobody.else@example.com")).toBeUndefined();
  });

  it("links an existing account without changing its name, email or type", async () => {
    const staffBefore = await accountOf("staff@example.com");
    const memberBefore = await accountOf("harbor.member@example.com");
    const linked = await northfield([
      { email: "staff@example.com", name: "Renamed By Client", user_type: "user", app_user: { role: "client_user" } },
      { email: "harbor.member@example.com", name: "Renamed By Client", user_type: "user", app_user: { role: "client_admin" } },
    ]);
    expect(linked.status).toBe(200);
    // The list shows a Client Admin nothing of the account's life elsewhere: its type, or an age older than the grant.
    const listed = linked.body.users.find((u: Listed) => u.email === "staff@example.com");
    expect(listed.user_type).toBe("user");
    expect(listed.created_at).toBe(listed.app_user.created_at);
    expect(await accountOf("staff@example.com")).toEqual(staffBefore);
    expect(await accountOf("harbor.member@example.com")).toEqual(memberBefore);
    expect(await clientsOf("harbor.member@example.com")).toEqual([northfieldId, harborId].sort());
    expect(await clientsOf("staff@example.com")).toEqual([northfieldId]);
    await northfield([
      { email: "staff@example.com", name: "x", action: "delete" },
      { email: "harbor.member@example.com", name: "x", action: "delete" },
    ]);
    expect(await clientsOf("harbor.member@example.com")).toEqual([harborId]);
  });

  it("never lets an account a Client Admin created stop another client from adding the same person", async () => {
    const first = await northfield([{ email: "shared.person@example.com", name: "Name Northfield Gave", app_user: { role: "client_user" } }]);
    expect(first.status).toBe(200);
    const second = await upsert("harbor.admin", harborId, [{ email: "shared.person@example.com", name: "Name Harbor Typed", app_user: { role: "client_admin" } }]);
    expect(second.status).toBe(200);
    expect(second.body.users.find((u: Listed) => u.email === "shared.person@example.com")).toMatchObject({ app_user: { role: "client_admin" } });
    expect(await clientsOf("shared.person@example.com")).toEqual([northfieldId, harborId].sort());
    expect(await accountOf("shared.person@example.com")).toMatchObject({ name: "Name Northfield Gave", userType: "user" });
  });
});

describe("a Client Admin naming a person by id", () => {
  it("gets one error for an unknown id and for the id of another client's member", async () => {
    const outsider = await accountOf("harbor.member@example.com");
    const unknownId = outsider.id + 100_000;
    const refused = { status: 400, body: { message: "Some rows could not be saved", errors: { "users.0.id": [NOT_A_MEMBER] } } };
    for (const row of [
      { email: "harbor.member@example.com", name: "Harbor Member" }, // the account exactly as it is
      { email: "guess@example.com", name: "Guessed Name" },
    ]) {
      for (const id of [unknownId, outsider.id]) {
        expect(await northfield([{ id, ...row, app_user: { role: "client_user" } }]), `${id} ${row.email}`).toEqual(refused);
      }
    }
    expect(await accountOf("harbor.member@example.com")).toEqual(outsider);
    expect(await clientsOf("harbor.member@example.com")).toEqual([harborId]);
  });

  it("refuses renaming a member to another account's address as any rename, never naming the other account", async () => {
    const viewer = await accountOf("client.user@example.com");
    const staffOnly = { status: 400, body: { message: "Some rows could not be saved", errors: { "users.0.name": ["Only staff can change an existing user's name or email"] } } };
    for (const email of ["harbor.member@example.com", "staff@example.com", "free.address@example.com"]) {
      expect(await northfield([{ id: viewer.id, email, name: viewer.name, app_user: { role: "client_user" } }]), email).toEqual(staffOnly);
    }
    expect(await accountOf("client.user@example.com")).toEqual(viewer);
  });

  it("removes nobody outside the client, and answers such a removal like any other", async () => {
    const outsider = await accountOf("harbor.member@example.com");
    const list = (await call("GET", `/v1/apps/${northfieldId}/users`, { token: token["client.admin"] })).body.users;
    for (const row of [
      { id: outsider.id, email: outsider.email, name: outsider.name },
      { id: outsider.id + 100_000, email: "gone@example.com", name: "Gone" },
      { email: outsider.email, name: outsider.name },
      { email: "never.here@example.com", name: "Never" },
    ]) {
      expect(await northfield([{ ...row, action: "delete" }]), JSON.stringify(row)).toEqual({ status: 200, body: { users: list, message: "Access saved" } });
    }
    expect(await clientsOf("harbor.member@example.com")).toEqual([harborId]);
  });
});
