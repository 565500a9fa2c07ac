import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { LlmConfig } from "../../api/config";

/** What the API sent the model: the model's name, and its system and user messages. */
export interface ModelRequest {
  model: string;
  system: string;
  user: string;
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1, standing in for the language model
 * (outside the machine, so the one thing tests do not run for real). `reply` writes each answer's
 * content from what was asked; every request is kept in `requests`, in order.
 */
export async function startStandInModel(reply: (request: ModelRequest) => string | undefined, model = "local") {
  const requests: ModelRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const sent = JSON.parse(body);
      const request = { model: sent.model, system: sent.messages[0].content, user: sent.messages[1].content };
      requests.push(request);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ message: { content: reply(request) } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const config: LlmConfig = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey: "",
    model,
    timeoutMs: 5000,
  };
  return { config, requests, close: () => server.close() };
}
