import { asc, eq } from "drizzle-orm";
import { appUsers, users } from "../db/schema";
import { listChanges, listSummary } from "../history/describe";
import type { Change } from "../history/record";

interface AccessEntry {
  email: string;
  name: string;
  role: string;
}

/**
 * Who has access to the client, and as what. Only what belongs to the client: the name it gave each
 * person, never the account's name, type or age, which are facts about it elsewhere (as listAppUsers
 * shows a Client Admin).
 */
export const accessChange = (appId: number): Change => ({
  appId,
  kind: "user_access",
  targets: [""],
  read: (_, db) =>
    db
      .select({ email: users.email, name: appUsers.name, role: appUsers.role })
      .from(appUsers)
      .innerJoin(users, eq(users.id, appUsers.userId))
      .where(eq(appUsers.appId, appId))
      .orderBy(asc(users.email)),
  summary: (_, before, after) =>
    listSummary(
      "Access",
      listChanges<AccessEntry>(before, after, (entry) => entry.email),
    ),
});
