import { BotInstall } from "@contract";
import type { ApiClient } from "./client.server";

export const botApi = {
  /** The embed script of an environment (stage = Sandbox, prod = Production) for an agent's site code. */
  install: (api: ApiClient, appId: number, env: "stage" | "prod", appName: string) =>
    api.get(BotInstall, "/v1/bot_installs", { app_id: appId, env, app_name: appName }),
};
