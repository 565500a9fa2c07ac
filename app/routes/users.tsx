import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { userFormRow, type UserFormRow } from "~/components/users/rows";
import type { TableActionData } from "~/components/editable-table/rows";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { TablePager } from "~/components/TableView";
import { UsersTable } from "~/components/users/UsersTable";
import { USERS_SORTS, usersSortValue } from "~/components/users/sorting";
import { readTableView, viewRows } from "~/lib/table-view";
import { requireApi } from "~/server/api/client.server";
import { usersApi } from "~/server/api/users-api.server";
import { consoleContext } from "~/server/context.server";
import { handleTableAction, storedRows } from "~/server/table-kit.server";
import { usersTable } from "~/server/users-table.server";
import { useOptionalUser } from "~/lib/user";
import { requireUserWithPermission } from "~/server/permissions.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Staff only: the API answers 403 to anyone else, and the route's error boundary says so. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const { users, assignable_user_types } = await usersApi.list(api);
  const view = readTableView(new URL(request.url).searchParams, USERS_SORTS);
  const shown = viewRows(users, view, usersSortValue);
  return json({
    users: shown.rows,
    paging: { view, page: shown.page, totalPages: shown.totalPages, total: shown.total },
    assignableTypes: assignable_user_types,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  await requireUserWithPermission(api, "manage_users");
  return handleTableAction({
    request,
    ...usersTable,
    save: async (users) => (await usersApi.upsert(api, { users })).message,
    stored: async () => storedRows((await usersApi.list(api)).users.map(userFormRow)),
  });
}

export default function Users() {
  const { users, paging, assignableTypes } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as TableActionData<UserFormRow> | undefined;
  const me = useOptionalUser();
  const tableKey = useTableGeneration(posted, users);
  const createdAt = Object.fromEntries(users.map((user) => [String(user.id), user.created_at]));
  return (
    <section>
      <h1>Users</h1>
      <UsersTable
        key={tableKey}
        rows={posted?.rows ?? users.map(userFormRow)}
        errors={posted?.errors ?? []}
        formError={posted?.formError ?? null}
        assignableTypes={assignableTypes}
        createdAt={createdAt}
        currentUserId={me?.id ?? null}
        view={paging.view}
      />
      <TablePager {...paging} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Users · Assistant Console" }];

export function ErrorBoundary() {
  return <RouteError />;
}
