import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { TablePager } from "~/components/TableView";
import { AccessTable } from "~/components/users/AccessTable";
import { ACCESS_SORTS, accessSortValue } from "~/components/users/sorting";
import { readTableView, viewRows } from "~/lib/table-view";
import { accessFormRow, type AccessFormRow } from "~/components/users/rows";
import type { TableActionData } from "~/components/editable-table/rows";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { isStaff } from "~/lib/permissions";
import { usersApi } from "~/server/api/users-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { handleTableAction, storedRows } from "~/server/table-kit.server";
import { accessTable } from "~/server/users-table.server";
import { useOptionalUser, useUserCan } from "~/lib/user";
import { requireUserWithPermission } from "~/server/permissions.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const { users, assignable_roles } = await usersApi.listForApp(api, app.id);
  const view = readTableView(new URL(request.url).searchParams, ACCESS_SORTS);
  const shown = viewRows(users, view, accessSortValue);
  return json({
    client: { id: app.id, name: app.client_name },
    users: shown.rows,
    paging: { view, page: shown.page, totalPages: shown.totalPages, total: shown.total },
    assignableRoles: assignable_roles,
  });
}

/** Grants, changes and removals; a client_user (who may only look) gets 403. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  await requireUserWithPermission(api, "manage_access", app.id);
  return handleTableAction({
    request,
    ...accessTable,
    save: async (users) => (await usersApi.upsertForApp(api, app.id, { users })).message,
    stored: async () => storedRows((await usersApi.listForApp(api, app.id)).users.map(accessFormRow)),
  });
}

export default function AccessControl() {
  const { client, users, paging, assignableRoles } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as TableActionData<AccessFormRow> | undefined;
  const me = useOptionalUser();
  const onboardedAt = Object.fromEntries(users.map((user) => [String(user.id), user.app_user.created_at]));
  const canManage = useUserCan("manage_access", client.id) && assignableRoles.length > 0;
  const tableKey = useTableGeneration(posted, users);
  return (
    <section>
      <h1>Access Control</h1>
      <AccessTable
        key={tableKey}
        rows={posted?.rows ?? users.map(accessFormRow)}
        errors={posted?.errors ?? []}
        formError={posted?.formError ?? null}
        clientName={client.name}
        assignableRoles={assignableRoles}
        onboardedAt={onboardedAt}
        currentUserEmail={me?.email ?? null}
        canManage={canManage}
        canEditPeople={Boolean(me && isStaff(me))}
        confirming={posted?.toConfirm}
        view={paging.view}
      />
      <TablePager {...paging} />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Access Control · ${data.client.name} · Assistant Console` : "Access Control · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
