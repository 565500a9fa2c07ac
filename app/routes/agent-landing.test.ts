import { describe, expect, it } from "vitest";
import { getRequest, settle } from "../../tests/support/console-context";
import { loader } from "./agent.$agentName";

/** The global architecture page, /agent/{agent_name}: its heading and the remembered agent come from the address. */
async function statusFor(agentName: string) {
  const address = `/agent/${encodeURIComponent(agentName)}`;
  const response = await settle(() =>
    Promise.resolve(loader({ request: getRequest(address), params: { agentName }, context: {} } as never)),
  );
  return response.status;
}

describe("the global architecture page", () => {
  it("shows any agent name a person could have typed", async () => {
    expect(await statusFor("admissions")).toBe(200);
    expect(await statusFor("Admissions Assistant")).toBe(200);
    expect(await statusFor("é".repeat(200))).toBe(200);
  });

  it("answers 404 to a name no agent can have, rather than writing it into the heading and browser storage", async () => {
    for (const name of ["\u0000", "bad\u0000name", "bell\u0007", "Agent \u202eevil", "x".repeat(201), " "]) {
      expect(await statusFor(name), JSON.stringify(name.slice(0, 10))).toBe(404);
    }
  });
});
