import { z } from "zod";
import { AppearanceData, WIDGET_ENVIRONMENTS } from "./appearance";
import { CHAT_MESSAGE_MAX_CHARS } from "./values/chat";
import { IdParam } from "./common";
export * from "./values/chat";

export const ChatRequest = z.object({
  /** The embed key of the script the widget was loaded with. */
  key: z
    .string({ error: "The embed key is missing" })
    .min(10, "The embed key is not valid")
    .max(100, "The embed key is not valid"),
  trigger_point: z.string().trim().max(100).default(""),
  conversation_id: z.uuid({ error: "Not a conversation id" }).optional(),
  message: z
    .string({ error: "Type a message" })
    .trim()
    .min(1, "Type a message")
    .max(CHAT_MESSAGE_MAX_CHARS, `Keep messages to at most ${CHAT_MESSAGE_MAX_CHARS.toLocaleString("en")} characters`),
});
export type ChatRequest = z.input<typeof ChatRequest>;

export const WidgetConfigQuery = z.object({
  key: z.string().min(10).max(100),
  trigger_point: z.string().trim().max(100).default(""),
});
export const WidgetConfig = z.object({ environment: z.enum(WIDGET_ENVIRONMENTS), appearance: AppearanceData });
export type WidgetConfig = z.infer<typeof WidgetConfig>;

export const BotInstallQuery = z.object({
  app_id: IdParam,
  env: z.enum(WIDGET_ENVIRONMENTS, { error: "env must be stage or prod" }),
  /** The agent (site code) the script is for; the client default when empty. */
  app_name: z.string().trim().max(100).default(""),
});
export const BotInstall = z.object({
  content: z.string(),
  key: z.string(),
  environment: z.enum(WIDGET_ENVIRONMENTS),
  trigger_point: z.string(),
});
export type BotInstall = z.infer<typeof BotInstall>;
