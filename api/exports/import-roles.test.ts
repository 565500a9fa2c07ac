import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUsers, clientApps, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/*
 * An import writes the file's access list as Access Control would grant it, so it grants only the
 * roles its caller could grant there: an Admin (staff, not a System Admin) gives no super_admin
 * role and changes no super_admin's access, whatever the file says.
 */

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let superAdmin: string;
let staffAdmin: string;
let northfieldId: number;
let exported: Record<string, unknown> & { app: Record<string, unknown>; access: unknown[] };

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  await host.deps.db.insert(users).values({ email: "staff@example.com", name: "Staff", userType: "admin" });
  superAdmin = (await signInAs(host, "admin@example.com")).user_token;
  staffAdmin = (await signInAs(host, "staff@example.com")).user_token;
  northfieldId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  const { body } = await call("POST", `/v1/apps/${northfieldId}/exports/export`, { token: superAdmin });
  exported = JSON.parse((await host.deps.storage.get(`exports/${body.file_name}`))!.toString());
});
afterAll(() => host?.close());

const roleOf = async (appId: number, email: string) =>
  (
    await host.deps.db
      .select({ role: appUsers.role })
      .from(appUsers)
      .innerJoin(users, eq(users.id, appUsers.userId))
      .where(and(eq(appUsers.appId, appId), eq(users.email, email)))
  )[0]?.role ?? null;

async function fileGranting(
  fileName: string,
  urlCode: string,
  access: { email: string; name: string; role: string }[],
) {
  await host.deps.storage.put(
    `exports/${fileName}`,
    JSON.stringify({
      ...exported,
      app: { ...exported.app, url_code: urlCode, client_name: `Copy ${urlCode}` },
      access,
    }),
  );
}

describe("an import's access list, by who imports it", () => {
  it("refuses an Admin's file that gives a super_admin role, for a new client and in its preview, writing nothing", async () => {
    await fileGranting("grant-super.json", "granted-copy", [
      { email: "raised@example.com", name: "Raised", role: "super_admin" },
    ]);
    for (const path of ["/v1/import_from_file/preview", "/v1/import_from_file"]) {
      const refused = await call("POST", path, { token: staffAdmin, body: { file_name: "grant-super.json" } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        "grant-super.json gives raised@example.com the role super_admin, which you may not give",
      );
    }
    expect(await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "granted-copy"))).toEqual([]);
    expect(await host.deps.db.select().from(users).where(eq(users.email, "raised@example.com"))).toEqual([]);
  });

  it("refuses an Admin's file that changes a super_admin member's access", async () => {
    const [person] = await host.deps.db
      .insert(users)
      .values({ email: "owner@example.com", name: "Owner" })
      .returning({ id: users.id });
    await host.deps.db
      .insert(appUsers)
      .values({ appId: northfieldId, userId: person.id, role: "super_admin", name: "Owner" });
    await fileGranting("lower-super.json", "northfield", [
      { email: "owner@example.com", name: "Owner", role: "client_user" },
    ]);
    const refused = await call("POST", "/v1/import_from_file", {
      token: staffAdmin,
      body: { file_name: "lower-super.json" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "lower-super.json changes the access of owner@example.com, a super_admin, which you may not change",
    );
    expect(await roleOf(northfieldId, "owner@example.com")).toBe("super_admin");
  });

  it("lets an Admin import the roles Access Control lets them give, and a System Admin every role", async () => {
    await fileGranting("grant-admin.json", "admin-copy", [
      { email: "helper@example.com", name: "Helper", role: "admin" },
      { email: "viewer@example.com", name: "Viewer", role: "client_user" },
    ]);
    const imported = await call("POST", "/v1/import_from_file", {
      token: staffAdmin,
      body: { file_name: "grant-admin.json" },
    });
    expect(imported.status).toBe(200);
    expect(await roleOf(imported.body.app.id, "helper@example.com")).toBe("admin");
    const bySuper = await call("POST", "/v1/import_from_file", {
      token: superAdmin,
      body: { file_name: "grant-super.json" },
    });
    expect(bySuper.status).toBe(200);
    expect(await roleOf(bySuper.body.app.id, "raised@example.com")).toBe("super_admin");
  });
});
