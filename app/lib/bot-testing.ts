import { WIDGET_ENVIRONMENT_LABELS, type WidgetEnvironment } from "@contract/values/appearance";

export const COPY_MESSAGES = { copied: "Text copied to clipboard!", failed: "Failed to copy text." } as const;

/** `?env=` of the Bot Testing page: stage (Sandbox) unless prod is asked for. */
export const environmentOf = (search: URLSearchParams): WidgetEnvironment =>
  search.get("env") === "prod" ? "prod" : "stage";

export const ENVIRONMENT_OPTIONS = (Object.keys(WIDGET_ENVIRONMENT_LABELS) as WidgetEnvironment[]).map((value) => ({
  value,
  label: WIDGET_ENVIRONMENT_LABELS[value],
}));

/** A bare page that embeds exactly the given script, as a client's site would. */
/** What the test page says with JavaScript off: the chat is the embed script, which cannot run. */
export const TEST_PAGE_WITHOUT_JAVASCRIPT =
  "JavaScript is off in this browser, so the chat cannot open here: the assistant is the embed script above. Turn JavaScript on and reload this page to test it.";

export function testPageHtml(title: string, script: string) {
  const safeTitle = title.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>Test Chatbot · ${safeTitle}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:48px;background:#f6f7f9;color:#1c2430}main{max-width:640px}</style></head>
<body><main><h1>Test Chatbot</h1><p>This page embeds the ${safeTitle} script exactly as a website would. Open the chat with the button in the corner.</p><noscript><p><strong>${TEST_PAGE_WITHOUT_JAVASCRIPT}</strong></p></noscript></main>
${script}
</body>
</html>`;
}
