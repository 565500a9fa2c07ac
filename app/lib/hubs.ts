export interface HubCard {
  title: string;
  description: string;
  /** A sub page of the hub. */
  slug?: string;
  /** A back-office page, opened in a new tab. */
  backofficePage?: string;
}

export const HUBS: Record<string, { title: string; cards: HubCard[] }> = {
  "knowledge-store": {
    title: "AI Knowledge Store",
    cards: [
      {
        title: "Websites",
        slug: "websites",
        description: "Crawl websites through their sitemaps and index their pages.",
      },
      { title: "Files", slug: "files", description: "Upload PDF files for the assistant to learn from." },
      {
        title: "Smart Probing",
        slug: "smart-probing",
        description: "Topics the assistant asks about, and how it probes them.",
      },
      { title: "Program Data Model", slug: "program-data-model", description: "The fields that describe a program." },
    ],
  },
  controls: {
    title: "Controls",
    cards: [
      {
        title: "AI Personality",
        slug: "ai-personality",
        description: "The guidelines that shape how the assistant speaks.",
      },
      { title: "Sensitive Topics", slug: "sensitive-topics", description: "Topics answered with a disclaimer." },
      { title: "No-Go Topics", slug: "no-go-topics", description: "Topics answered only with a canned response." },
      {
        title: "Hallucination Accuracy & Quality Check",
        slug: "quality-check",
        description: "When the assistant should decline rather than guess.",
      },
      {
        title: "Test Questions",
        slug: "test-questions",
        description: "Questions with what their answers must do, run after every change.",
      },
    ],
  },
  personalization: {
    title: "Personalization",
    cards: [
      {
        title: "User Profile Data Model",
        slug: "user-profile-data-model",
        description: "What the assistant learns about a user.",
      },
      {
        title: "Program Profile Data Model",
        slug: "program-profile-data-model",
        description: "What describes a program, for recommendations.",
      },
    ],
  },
  "user-profiling": {
    title: "User Profiling",
    cards: [
      {
        title: "Student Profile Data Model",
        slug: "student-profile-data-model",
        description: "The fields of a student profile.",
      },
      {
        title: "Student Profile Store",
        backofficePage: "/user_profiles",
        description: "The profiles captured by the assistant.",
      },
      {
        title: "University's Student Profile Store",
        description: "The university's own records, kept in its systems.",
      },
    ],
  },
};
HUBS["student-profiling"] = { ...HUBS["user-profiling"], title: "Student Profiling" };

/** The hub a path shows: its last segment ('knowledge store' with a space counts as 'knowledge-store'). */
export function hubTypeOf(pathname: string) {
  const last = decodeURIComponent(pathname.replace(/\/$/, "").split("/").pop() ?? "");
  return last.trim().toLowerCase().replace(/\s+/g, "-");
}

/** Where a hub's sub pages live: beside the hub, under the agent when there is one. */
export function hubBasePath(pathname: string, pageType: string) {
  const [, appName, agentWord, agentName] = pathname.split("/");
  const prefix = agentWord === "agent" && agentName ? `/${appName}/agent/${agentName}` : `/${appName}`;
  return `${prefix}/${pageType}`;
}
