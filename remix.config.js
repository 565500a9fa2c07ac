/**
 * Remix v2, classic compiler. Routes are the flat files of app/routes; the paths below are the
 * spec's second addresses for the same screens (hubs with or without the agent prefix, legacy
 * paths, 'knowledge store' with a space). Each alias reuses the canonical route module.
 *
 * @type {import('@remix-run/dev').AppConfig}
 */
const R = "routes/$appName.agent.$agentName";

/** Paths under /:appName (no agent) ⇒ the agent-level module that renders them. */
const clientLevelAliases = {
  controls: `${R}.controls._index.tsx`,
  "controls/ai-personality": `${R}.controls.ai-personality.tsx`,
  "controls/sensitive-topics": `${R}.controls.sensitive-topics.tsx`,
  "controls/no-go-topics": `${R}.controls.no-go-topics.tsx`,
  "controls/quality-check": `${R}.controls.quality-check.tsx`,
  "controls/test-questions": `${R}.controls.test-questions.tsx`,
  "controls/test-questions/export": `${R}.controls.test-questions_.export.tsx`,
  "controls/test-questions/runs/:runId": `${R}.controls.test-questions_.runs.$runId.tsx`,
  "ai-finetuning/controls": `${R}.controls._index.tsx`,
  "ai-finetuning/ai-personality": `${R}.controls.ai-personality.tsx`,
  "ai-finetuning/smart-probe": `${R}.knowledge-store.smart-probing.tsx`,
  personalization: `${R}.personalization._index.tsx`,
  "personalization/user-profile-data-model": `${R}.personalization.user-profile-data-model.tsx`,
  "personalization/program-profile-data-model": `${R}.personalization.program-profile-data-model.tsx`,
  "user-profiling": `${R}.user-profiling._index.tsx`,
  "user-profiling/user-profile-data-model": `${R}.user-profiling.user-profile-data-model.tsx`,
  "user-profiling/student-profile-data-model": `${R}.user-profiling.student-profile-data-model.tsx`,
  "student-profiling": `${R}.student-profiling._index.tsx`,
  "student-profiling/user-profile-data-model": `${R}.user-profiling.user-profile-data-model.tsx`,
  "student-profiling/student-profile-data-model": `${R}.user-profiling.student-profile-data-model.tsx`,
  // Appearance per trigger point, chosen with the selector (an agent's page fixes its own).
  appearance: `${R}.appearance.tsx`,
  "appearance/preview": `${R}.appearance_.preview.tsx`,
};

/** Paths under /:appName/agent/:agentName ⇒ module. */
const agentLevelAliases = {
  "knowledge store": `${R}.knowledge-store._index.tsx`,
  "student-profiling/user-profile-data-model": `${R}.user-profiling.user-profile-data-model.tsx`,
  "student-profiling/student-profile-data-model": `${R}.user-profiling.student-profile-data-model.tsx`,
};

export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
  routes: async (defineRoutes) =>
    defineRoutes((route) => {
      // A second copy of the client scope (its own id) carries the aliases, so they get the same
      // loader (client must exist) and error boundary as the canonical pages.
      route(":appName", "routes/$appName.tsx", { id: "alias/client" }, () => {
        for (const [path, file] of Object.entries(clientLevelAliases))
          route(path, file, { id: `alias/client/${path}` });
        // The legacy websites address keeps its drawers (view links, chunks, all URLs, exports).
        const W = `${R}.knowledge-store.websites`;
        route("ai-training/websites", `${W}.tsx`, { id: "alias/legacy-websites" }, () => {
          route(":websiteId", `${W}.$websiteId.tsx`, { id: "alias/legacy-websites/website" }, () => {
            route("chunks", `${W}.$websiteId.chunks.tsx`, { id: "alias/legacy-websites/website/chunks" });
            route("export", `${W}.$websiteId.export.tsx`, { id: "alias/legacy-websites/website/export" });
          });
          route("urls", `${W}.urls.tsx`, { id: "alias/legacy-websites/urls" }, () => {
            route("export", `${W}.urls.export.tsx`, { id: "alias/legacy-websites/urls/export" });
          });
        });
        route("ai-training/files", `${R}.knowledge-store.files.tsx`, { id: "alias/legacy-files" }, () => {
          route(":fileId/chunks", `${R}.knowledge-store.files.$fileId.chunks.tsx`, { id: "alias/legacy-files/chunks" });
        });
        route("agent/:agentName", `${R}.tsx`, { id: "alias/agent" }, () => {
          for (const [path, file] of Object.entries(agentLevelAliases))
            route(path, file, { id: `alias/agent/${path}` });
        });
      });
    }),
};
