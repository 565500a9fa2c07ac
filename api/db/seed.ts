import { sql } from "drizzle-orm";
import type { ApiDeps } from "../deps";
import { dataModelChange } from "../history/kinds";
import { recordChange } from "../history/record";
import { testQuestionsImportChange } from "../testing/questions-change";
import { websitesChange } from "../knowledge/website-change";
import { DEMO_TESTED_AGENT, demoTestQuestions } from "./demo-site";
import { agents, appUsers, clientApps, profileFields, testQuestions, users, websites } from "./schema";

const DEMO_PROFILE_FIELDS = [
  {
    modelType: "user_profile",
    group: "Personal Contact Information",
    name: "first_name",
    fieldType: "text",
    definition: "The name the student goes by",
  },
  {
    modelType: "user_profile",
    group: "Personal Contact Information",
    name: "email",
    fieldType: "text",
    definition: "Where the admissions team can reach the student",
  },
  {
    modelType: "user_profile",
    group: "Personal Contact Information",
    name: "phone",
    fieldType: "text",
    definition: "A number the admissions team can call or text the student on",
  },
  {
    modelType: "user_profile",
    group: "Learning Interests",
    name: "intended_major",
    fieldType: "text",
    definition: "The major or program the student is interested in",
  },
  {
    modelType: "user_profile",
    group: "Academic Profile",
    name: "gpa",
    fieldType: "number",
    definition: "High-school grade point average",
  },
  {
    modelType: "user_profile",
    group: "Budgets & Financials",
    name: "needs_financial_aid",
    fieldType: "boolean",
    definition: "Whether the student asks about scholarships or aid",
  },
  {
    modelType: "program_profile",
    group: "Program Content & Descriptions",
    name: "program_name",
    fieldType: "text",
    definition: "The program's name",
  },
  {
    modelType: "program_profile",
    group: "Scheduling & Duration",
    name: "duration_years",
    fieldType: "number",
    definition: "How many years the program takes",
  },
  {
    modelType: "program_profile",
    group: "Program Structure",
    name: "concentrations",
    fieldType: "array",
    definition: "Concentrations to choose from",
  },
  {
    modelType: "program_profile",
    group: "Budgets & Financials",
    name: "tuition",
    fieldType: "number",
    definition: "Tuition per year or semester",
  },
] as const;

/** An advisory lock key of our own (any fixed number no other code of ours uses). */
const SEED_LOCK = 0x5eed;

/**
 * First start on an empty database: an administrator, a higher-ed and an ecommerce client with
 * agents, and two client-side users, so a new install shows a working console at once. With the
 * bundled demo site, the university also gets it as a website, data models that match it and its
 * admissions agent's test questions about it.
 * Does nothing when any user exists. Answers whether it seeded.
 */
export async function seedIfEmpty(deps: Pick<ApiDeps, "db" | "config" | "log">) {
  const [{ count }] = await deps.db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (Number(count) > 0) return false;
  return deps.db.transaction(async (tx) => {
    // Several processes starting on one new database: one seeds, the others wait here and then
    // find its users (the lock ends with the transaction).
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [{ again }] = await tx.select({ again: sql<number>`count(*)::int` }).from(users);
    if (Number(again) > 0) return false;
    const [admin] = await tx
      .insert(users)
      .values({ email: deps.config.adminEmail, name: "Administrator", userType: "super_admin" })
      .returning();
    const [university, shop] = await tx
      .insert(clientApps)
      .values([
        {
          clientName: "Northfield University",
          primaryWebsite: "https://www.northfield.edu",
          country: "US",
          market: "us_northfield",
          urlCode: "northfield",
          copyMarket: "us_eduenroll",
          clientType: "higher_ed",
          projectUrl: "https://www.northfield.edu/admissions",
          notes: "Demo client: a university with admissions and student-success assistants.",
          triggerPoints: ["admissions", "studentsuccess"],
        },
        {
          clientName: "Harbor Outfitters",
          primaryWebsite: "https://shop.harbor-outfitters.com",
          country: "UK",
          market: "uk_shopharbor-outfitters",
          urlCode: "shopharbor-outfitters",
          copyMarket: "us_configdefault",
          clientType: "ecommerce",
          notes: "Demo client: an outdoor clothing shop.",
          triggerPoints: ["shop"],
        },
      ])
      .returning();
    await tx.insert(agents).values([
      {
        appId: university.id,
        name: "Admissions Assistant",
        agentType: "enrollment",
        siteCode: "admissions",
        url: "https://www.northfield.edu/admissions",
      },
      {
        appId: university.id,
        name: "Student Success",
        agentType: "engagement",
        siteCode: "studentsuccess",
        url: "https://www.northfield.edu/students",
      },
      {
        appId: shop.id,
        name: "Shop Assistant",
        agentType: "ecommerce",
        siteCode: "shop",
        url: "https://shop.harbor-outfitters.com",
      },
    ]);
    const [clientAdmin, clientUser] = await tx
      .insert(users)
      .values([
        { email: "client.admin@example.com", name: "Casey Admin", userType: "user" },
        { email: "client.user@example.com", name: "Jordan Viewer", userType: "user" },
      ])
      .returning();
    await tx.insert(appUsers).values([
      { appId: university.id, userId: clientAdmin.id, role: "client_admin", name: clientAdmin.name },
      { appId: university.id, userId: clientUser.id, role: "client_user", name: clientUser.name },
    ]);
    if (deps.config.demoSiteUrl) {
      const demoSiteUrl = deps.config.demoSiteUrl;
      // Recorded in the History as the administrator's first changes, as any later save is.
      const author = { id: admin.id, email: admin.email };
      // Read and indexed once the server answers (see resumePipeline): a knowledge store that works offline.
      await recordChange({ db: tx }, author, websitesChange(university.id, []), async (db) => {
        const [demo] = await db
          .insert(websites)
          .values({
            appId: university.id,
            url: demoSiteUrl,
            siteMap: "full_website",
            tags: ["Development"],
            addedBy: admin.id,
          })
          .returning({ id: websites.id });
        return { saved: [demo.id] };
      });
      // Data models that match the demo site, so profile capture and the recommendation build have something to fill.
      await recordChange(
        { db: tx },
        author,
        dataModelChange(university.id, ["user_profile", "program_profile"]),
        async (db) => {
          await db
            .insert(profileFields)
            .values(DEMO_PROFILE_FIELDS.map((field) => ({ ...field, appId: university.id })));
        },
      );
      // Questions about the demo site's pages: the runs that follow its first indexing ask them.
      const questions = demoTestQuestions(demoSiteUrl).map((question) => ({
        ...question,
        triggerPoint: DEMO_TESTED_AGENT,
      }));
      const imported = await testQuestionsImportChange(university.id, DEMO_TESTED_AGENT, tx);
      await recordChange({ db: tx }, author, imported, (db) =>
        db.insert(testQuestions).values(questions.map((question) => ({ ...question, appId: university.id }))),
      );
    }
    deps.log.info(`seeded demo data; sign in as ${admin.email}`);
    return true;
  });
}
