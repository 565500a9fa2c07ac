import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_A_MEMBER } from "./routes";
import { appUsers, clientApps, users } from "../db/schema";
import { EXPORTS_FOLDER } from "../exports/format";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

// Accounts are not an oracle (docs/decisions/016, 032): what a Client Admin of one client is answered
// must not depend on whether a person has an account elsewhere (another client, staff) or none.

type Host = Awaited<ReturnType<typeof startTestHost>>;
type Listed = {
  id: number;
  email: string;
  name: string;
  user_type: string;
  created_at: string;
  app_user: { role: string; created_at: string };
};
type Row = {
  id?: number;
  email: string;
  name: string;
  user_type?: string;
  app_user?: { role: string };
  action?: "add" | "delete";
};

/** One test host as a Client Admin of Northfield and one of Harbor Outfitters see it. */
interface Site {
  host: Host;
  call: ReturnType<typeof apiCaller>;
  token: Record<"client.admin" | "harbor.admin", string>;
  northfieldId: number;
  harborId: number;
}

/**
 * A fresh host with the same people on every run: a staff account, and Harbor's admin and two
 * members, one of them under the name Harbor gave them. Two such hosts hold the same ids.
 */
async function openSite(): Promise<Site> {
  const host = await startTestHost();
  const apps = await host.deps.db.select().from(clientApps);
  const northfieldId = apps.find((a) => a.urlCode === "northfield")!.id;
  const harborId = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
  const [, harborAdmin, harborMember, harborThird] = await host.deps.db
    .insert(users)
    .values([
      { email: "staff@example.com", name: "Staff Person", userType: "admin" },
      { email: "harbor.admin@example.com", name: "Harbor Admin", userType: "user" },
      { email: "harbor.member@example.com", name: "Harbor Member", userType: "user" },
      { email: "harbor.third@example.com", name: "Real Harbor Name", userType: "user" },
    ])
    .returning();
  await host.deps.db.insert(appUsers).values(
    [harborAdmin, harborMember, harborThird].map((person, index) => ({
      appId: harborId,
      userId: person.id,
      role: index === 0 ? "client_admin" : "client_user",
      name: person.name,
    })),
  );
  const token = {
    "client.admin": (await signInAs(host, "client.admin@example.com")).user_token,
    "harbor.admin": (await signInAs(host, "harbor.admin@example.com")).user_token,
  };
  return { host, call: apiCaller(host), token, northfieldId, harborId };
}

const upsert = (site: Site, as: keyof Site["token"], appId: number, rows: Row[]) =>
  site.call("POST", `/v1/apps/${appId}/users/upsert`, { token: site.token[as], body: { users: rows } });
const northfieldOf = (site: Site) => (rows: Row[]) => upsert(site, "client.admin", site.northfieldId, rows);

const accountOf = async (site: Site, email: string) =>
  (await site.host.deps.db.select().from(users).where(eq(users.email, email)))[0];
const clientsOf = async (site: Site, email: string) => {
  const account = await accountOf(site, email);
  return account
    ? (await site.host.deps.db.select().from(appUsers).where(eq(appUsers.userId, account.id)))
        .map((g) => g.appId)
        .sort()
    : [];
};
const membershipOf = async (site: Site, appId: number, email: string) => {
  const account = await accountOf(site, email);
  return (
    await site.host.deps.db
      .select()
      .from(appUsers)
      .where(and(eq(appUsers.appId, appId), eq(appUsers.userId, account.id)))
  )[0];
};

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/**
 * What a Client Admin reads after adding `email`, with that address written as `as` and every
 * moment as the same placeholder (two hosts never run at the same instant): the save's answer,
 * the member list, the History entry and a fresh export of the client.
 */
async function whatTheClientAdminReads(site: Site, email: string, as: string) {
  const northfield = northfieldOf(site);
  const saved = await northfield([{ email, name: "Typed Name", app_user: { role: "client_user" } }]);
  const listed = await site.call("GET", `/v1/apps/${site.northfieldId}/users`, { token: site.token["client.admin"] });
  const asClientAdmin = { token: site.token["client.admin"] };
  const history = await site.call(
    "GET",
    `/v1/apps/${site.northfieldId}/history?kind=user_access&page_size=1`,
    asClientAdmin,
  );
  const exported = await site.call("POST", `/v1/apps/${site.northfieldId}/exports/export`, asClientAdmin);
  const file = await site.host.deps.storage.get(`${EXPORTS_FOLDER}/${exported.body.file_name}`);
  // The file's name holds the moment of the export too.
  const read = {
    saved,
    listed,
    history,
    exported: { status: exported.status, message: exported.body.message },
    file: JSON.parse(file!.toString("utf8")) as unknown,
  };
  return JSON.parse(JSON.stringify(read).replaceAll(email, as).replace(ISO_TIME, "<time>")) as typeof read;
}

describe("a Client Admin adding the address of someone who has an account elsewhere", () => {
  let known: Site;
  let unknown: Site;
  beforeAll(async () => {
    [known, unknown] = await Promise.all([openSite(), openSite()]);
  });
  afterAll(async () => {
    await known?.host.close();
    await unknown?.host.close();
  });

  it("reads exactly what adding a new address reads, but for the address: the name typed, the membership's id and age", async () => {
    // Addresses that sort where the known ones do, so that both lists are in the same order.
    const pairs = [
      ["harbor.third@example.com", "harbor.unknown@example.com"],
      ["staff@example.com", "staff.unknown@example.com"],
    ];
    for (const [existing, fresh] of pairs) {
      const started = Date.now();
      const answer = await whatTheClientAdminReads(known, existing, existing);
      expect(await whatTheClientAdminReads(unknown, fresh, existing), existing).toEqual(answer);

      expect(answer.saved.status).toBe(200);
      const row = answer.saved.body.users.find((u: Listed) => u.email === existing);
      expect(row).toMatchObject({ name: "Typed Name", user_type: "user", app_user: { role: "client_user" } });
      expect(answer.history.body.data[0]).toMatchObject({ summary: `Access: added ${existing}` });
      // The row is the new membership: its id is the newest grant's, never the older account's.
      const membership = await membershipOf(known, known.northfieldId, existing);
      expect(row.id).toBe(membership.id);
      const listed = (
        await known.call("GET", `/v1/apps/${known.northfieldId}/users`, { token: known.token["client.admin"] })
      ).body.users;
      const added = listed.find((u: Listed) => u.email === existing);
      expect(added.created_at).toBe(added.app_user.created_at);
      expect(Date.parse(added.created_at)).toBeGreaterThanOrEqual(started - 1000);

      // Taken away again, so that the next pair is added to the same member list.
      for (const [site, email] of [
        [known, existing],
        [unknown, fresh],
      ] as const) {
        expect((await northfieldOf(site)([{ email, name: "Typed Name", action: "delete" }])).status).toBe(200);
      }
    }
  });

  it("keeps the account's own name, and the name Harbor gave the person in Harbor's list", async () => {
    const before = await accountOf(known, "harbor.third@example.com");
    const added = await northfieldOf(known)([
      { email: "harbor.third@example.com", name: "Typed Name", app_user: { role: "client_admin" } },
    ]);
    expect(added.status).toBe(200);
    expect(await accountOf(known, "harbor.third@example.com")).toEqual(before);
    const harborList = await known.call("GET", `/v1/apps/${known.harborId}/users`, {
      token: known.token["harbor.admin"],
    });
    expect(harborList.body.users.find((u: Listed) => u.email === "harbor.third@example.com").name).toBe(
      "Real Harbor Name",
    );
    expect(await clientsOf(known, "harbor.third@example.com")).toEqual([known.northfieldId, known.harborId].sort());
  });

  it("names what the person adds to this client by the name this client gave them", async () => {
    // harbor.third is a Client Admin of Northfield since the test above.
    const third = (await signInAs(known.host, "harbor.third@example.com")).user_token;
    const websites = `/v1/apps/${known.northfieldId}/websites`;
    const site = await known.call("POST", `${websites}/create_and_update`, {
      token: third,
      body: { websites: [{ app_id: known.northfieldId, url: "https://northfield.example/", site_map: "few_urls" }] },
    });
    expect(site.status).toBe(200);
    expect(site.body.websites[0].user).toEqual({ name: "Typed Name" });
    const presign = `/v1/files/presigned_urls?app_id=${known.northfieldId}`;
    const presigned = await known.call("POST", presign, { token: third, body: { file_names: ["guide.pdf"] } });
    expect(presigned.status).toBe(200);
    const asClientAdmin = { token: known.token["client.admin"] };
    expect((await known.call("GET", websites, asClientAdmin)).body.websites[0].user).toEqual({ name: "Typed Name" });
    expect(
      (await known.call("GET", `/v1/files?app_id=${known.northfieldId}`, asClientAdmin)).body.files[0].added_by,
    ).toBe("Typed Name");
  });
});

describe("a Client Admin adding a person by address", () => {
  let site: Site;
  let northfield: ReturnType<typeof northfieldOf>;
  beforeAll(async () => {
    site = await openSite();
    northfield = northfieldOf(site);
  });
  afterAll(() => site?.host.close());

  it("refuses a role it may not give and an account type alike, whether or not the address has an account", async () => {
    const answers = [];
    for (const email of ["nobody.else@example.com", "harbor.member@example.com", "admin@example.com"]) {
      answers.push(await northfield([{ email, name: "Typed Name", user_type: "admin", app_user: { role: "admin" } }]));
    }
    expect(answers[0]).toEqual({
      status: 400,
      body: {
        message: "Some rows could not be saved",
        errors: {
          "users.0.app_user.role": ["You may not give the role Admin"],
          "users.0.user_type": ["You may not create an Admin account"],
        },
      },
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await accountOf(site, "nobody.else@example.com")).toBeUndefined();
  });

  it("links an existing account without changing its name, email or type", async () => {
    const staffBefore = await accountOf(site, "staff@example.com");
    const memberBefore = await accountOf(site, "harbor.member@example.com");
    const linked = await northfield([
      { email: "staff@example.com", name: "Renamed By Client", user_type: "user", app_user: { role: "client_user" } },
      {
        email: "harbor.member@example.com",
        name: "Renamed By Client",
        user_type: "user",
        app_user: { role: "client_admin" },
      },
    ]);
    expect(linked.status).toBe(200);
    // The list shows a Client Admin nothing of the account's life elsewhere: its type, or an age older than the grant.
    const listed = linked.body.users.find((u: Listed) => u.email === "staff@example.com");
    expect(listed).toMatchObject({ name: "Renamed By Client", user_type: "user" });
    expect(listed.created_at).toBe(listed.app_user.created_at);
    expect(await accountOf(site, "staff@example.com")).toEqual(staffBefore);
    expect(await accountOf(site, "harbor.member@example.com")).toEqual(memberBefore);
    expect(await clientsOf(site, "harbor.member@example.com")).toEqual([site.northfieldId, site.harborId].sort());
    expect(await clientsOf(site, "staff@example.com")).toEqual([site.northfieldId]);
    await northfield([
      { email: "staff@example.com", name: "x", action: "delete" },
      { email: "harbor.member@example.com", name: "x", action: "delete" },
    ]);
    expect(await clientsOf(site, "harbor.member@example.com")).toEqual([site.harborId]);
  });

  it("never lets an account a Client Admin created stop another client from adding the same person", async () => {
    const first = await northfield([
      { email: "shared.person@example.com", name: "Name Northfield Gave", app_user: { role: "client_user" } },
    ]);
    expect(first.status).toBe(200);
    const second = await upsert(site, "harbor.admin", site.harborId, [
      { email: "shared.person@example.com", name: "Name Harbor Typed", app_user: { role: "client_admin" } },
    ]);
    expect(second.status).toBe(200);
    expect(second.body.users.find((u: Listed) => u.email === "shared.person@example.com")).toMatchObject({
      name: "Name Harbor Typed",
      app_user: { role: "client_admin" },
    });
    expect(await clientsOf(site, "shared.person@example.com")).toEqual([site.northfieldId, site.harborId].sort());
    expect(await accountOf(site, "shared.person@example.com")).toMatchObject({
      name: "Name Northfield Gave",
      userType: "user",
    });
    const northfieldList = await site.call("GET", `/v1/apps/${site.northfieldId}/users`, {
      token: site.token["client.admin"],
    });
    expect(northfieldList.body.users.find((u: Listed) => u.email === "shared.person@example.com").name).toBe(
      "Name Northfield Gave",
    );
  });
});

describe("a Client Admin naming a person by id", () => {
  let site: Site;
  let northfield: ReturnType<typeof northfieldOf>;
  beforeAll(async () => {
    site = await openSite();
    northfield = northfieldOf(site);
  });
  afterAll(() => site?.host.close());

  it("gets one error for an unknown id, another client's membership and an account's id", async () => {
    const outsider = await accountOf(site, "harbor.member@example.com");
    const harborMembership = await membershipOf(site, site.harborId, "harbor.member@example.com");
    const refused = {
      status: 400,
      body: { message: "Some rows could not be saved", errors: { "users.0.id": [NOT_A_MEMBER] } },
    };
    for (const row of [
      { email: "harbor.member@example.com", name: "Harbor Member" }, // the person exactly as Harbor lists them
      { email: "guess@example.com", name: "Guessed Name" },
    ]) {
      for (const id of [harborMembership.id + 100_000, harborMembership.id, outsider.id + 100_000]) {
        expect(await northfield([{ id, ...row, app_user: { role: "client_user" } }]), `${id} ${row.email}`).toEqual(
          refused,
        );
      }
    }
    expect(await accountOf(site, "harbor.member@example.com")).toEqual(outsider);
    expect(await clientsOf(site, "harbor.member@example.com")).toEqual([site.harborId]);
  });

  it("refuses renaming a member to another account's address as any rename, never naming the other account", async () => {
    const viewer = await accountOf(site, "client.user@example.com");
    const { id } = await membershipOf(site, site.northfieldId, "client.user@example.com");
    const staffOnly = {
      status: 400,
      body: {
        message: "Some rows could not be saved",
        errors: { "users.0.name": ["Only staff can change an existing user's name or email"] },
      },
    };
    for (const email of ["harbor.member@example.com", "staff@example.com", "free.address@example.com"]) {
      expect(await northfield([{ id, email, name: viewer.name, app_user: { role: "client_user" } }]), email).toEqual(
        staffOnly,
      );
    }
    expect(await accountOf(site, "client.user@example.com")).toEqual(viewer);
  });

  it("removes nobody outside the client, and answers such a removal like any other", async () => {
    const outsider = await accountOf(site, "harbor.member@example.com");
    const harborMembership = await membershipOf(site, site.harborId, "harbor.member@example.com");
    const list = (await site.call("GET", `/v1/apps/${site.northfieldId}/users`, { token: site.token["client.admin"] }))
      .body.users;
    for (const row of [
      { id: harborMembership.id, email: outsider.email, name: outsider.name },
      { id: harborMembership.id + 100_000, email: "gone@example.com", name: "Gone" },
      { email: outsider.email, name: outsider.name },
      { email: "never.here@example.com", name: "Never" },
    ]) {
      expect(await northfield([{ ...row, action: "delete" }]), JSON.stringify(row)).toEqual({
        status: 200,
        body: { users: list, message: "Access saved" },
      });
    }
    expect(await clientsOf(site, "harbor.member@example.com")).toEqual([site.harborId]);
  });
});
