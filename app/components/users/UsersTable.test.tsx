import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { UsersTable } from "./UsersTable";
import type { UserFormRow } from "./rows";

/* The Users table as the server draws an action's answer. */
async function rendered(rows: UserFormRow[], errors: UsersTableErrors) {
  const routes = [
    {
      path: "*",
      element: (
        <UsersTable
          rows={rows}
          errors={errors}
          formError="Fix the highlighted rows"
          assignableTypes={["admin", "user"]}
          createdAt={{ "7": "2026-12-01T10:00:00.000Z" }}
          currentUserId={1}
        />
      ),
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://console/users"));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
}
type UsersTableErrors = Parameters<typeof UsersTable>[0]["errors"];

const promoted: UserFormRow = {
  id: "7",
  email: "soon.promoted@example.com",
  name: "Renamed",
  user_type: "super_admin",
  editing: true,
  loaded: { email: "soon.promoted@example.com", name: "Soon Promoted", user_type: "super_admin" },
};

describe("a row the caller may not change", () => {
  it("reads as text and still says why its save was refused, beside its role", async () => {
    const html = await rendered([promoted], [{ user_type: ["Only a System Admin may change a System Admin"] }]);
    // Locked: no input to type in, no Edit action.
    expect(html).not.toMatch(/<input[^>]*type="email"/);
    expect(html).not.toContain("Edit soon.promoted@example.com");
    expect(html).toContain('id="users-u7-user_type-error"');
    expect(html).toMatch(/aria-describedby="users-u7-user_type-error"[^>]*>System Admin</);
    expect(html).toContain("Only a System Admin may change a System Admin");
  });
});
