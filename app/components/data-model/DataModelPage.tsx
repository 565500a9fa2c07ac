import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Drawer } from "~/components/Drawer";
import { useAddress } from "~/components/useAddress";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { DATA_MODEL_SCREENS, fieldFormRow, groupedModel, type DataModelScreen } from "~/lib/data-model";
import type { DataModelActionData, dataModelLoader } from "~/server/data-model.server";
import * as ui from "~/styles/ui.css";
import {
  DELETED_STATUS_ID,
  DeleteFieldConfirm,
  DeleteFieldQuestion,
  FieldsTable,
  useFocusAfterDeleteAnswer,
} from "./FieldsTable";
import { ImportPanel } from "./ImportPanel";
import { RecommendationModel } from "./RecommendationModel";
import * as s from "./data-model.css";
import { useCanConfigure } from "~/lib/user";

/**
 * A profile data model (spec section 2 "Manage User Profile / Program Profile Data Model"): the
 * JSON view grouped by group, Import, Add/Edit in a near-full-width drawer, and for programs the
 * recommendation model.
 */
export function DataModelPage({ screen }: { screen: DataModelScreen }) {
  const data = useLoaderData<typeof dataModelLoader>();
  const posted = useActionData<DataModelActionData>();
  const address = useAddress();
  const { noun } = DATA_MODEL_SCREENS[screen];
  const canConfigure = useCanConfigure(data.client.id);
  const postedFields = posted?.form === "fields" ? posted : undefined;
  const postedImport = posted?.form === "import" ? posted : null;
  const drawerOpen = data.editing || Boolean(postedFields);
  // Import copies another client's model: a person who sees no other client has nothing to choose.
  const canImport = canConfigure && data.importChoices.length > 0;
  const closed = address({ edit: null, delete: null, import: null });
  useFocusAfterDeleteAnswer(postedFields);

  const tableKey = useTableGeneration(postedFields, data.fields);
  return (
    <section>
      <div className={ui.pageHeader}>
        <h1>{data.title}</h1>
        <div className={ui.toolbar}>
          {canImport ? (
            <Link
              to={address({ import: "1", edit: null, delete: null })}
              className={ui.button.secondary}
              preventScrollReset
            >
              Import
            </Link>
          ) : null}
          <Link to={address({ edit: "1", import: null })} className={ui.button.primary} preventScrollReset>
            {canConfigure ? "Add/Edit" : "View Fields"}
          </Link>
        </div>
      </div>
      <p className={s.intro}>
        The fields that describe a {noun} for {data.client.name}: the assistant fills them from conversations and pages,
        and the console's insights read them. Each field has a group, a name, what it means, and a type.
      </p>
      {(data.importing || postedImport) && canImport ? (
        <ImportPanel noun={noun} choices={data.importChoices} cancelTo={closed} posted={postedImport} />
      ) : null}
      {data.error ? (
        <p role="alert" className={ui.fieldError}>
          {data.error}
        </p>
      ) : (
        <section className={s.section} aria-labelledby="json-view-title">
          <h2 id="json-view-title" className={s.sectionTitle}>
            JSON view
          </h2>
          {data.fields.length ? (
            <pre className={`${ui.pre} ${s.json}`} tabIndex={0} aria-label={`The ${noun} data model as JSON`}>
              {JSON.stringify(groupedModel(data.fields), null, 2)}
            </pre>
          ) : (
            <p className={ui.muted}>
              No fields yet.
              {canImport
                ? " Use Add/Edit to describe the model, or Import another client's."
                : canConfigure
                  ? " Use Add/Edit to describe the model."
                  : ""}
            </p>
          )}
        </section>
      )}
      {data.modelType === "program_profile" ? (
        <RecommendationModel
          programs={data.programs}
          error={data.programsError}
          canConfigure={canConfigure}
          hasFields={data.fields.length > 0}
        />
      ) : null}
      {drawerOpen && !data.error ? (
        <Drawer title={`${canConfigure ? "Edit" : "Fields of"} the ${noun} data model`} size="full" closeTo={closed}>
          {postedFields?.done ? (
            <p role="status" id={DELETED_STATUS_ID} tabIndex={-1} className={s.done}>
              {postedFields.done}
            </p>
          ) : null}
          {postedFields?.asking && canConfigure ? (
            <DeleteFieldQuestion field={postedFields.asking} />
          ) : data.deleting && canConfigure ? (
            <DeleteFieldConfirm field={data.deleting} cancelTo={address({ delete: null })} />
          ) : null}
          <FieldsTable
            // A saved change or an action's answer starts the table afresh; revalidating keeps what is typed.
            key={tableKey}
            noun={noun}
            rows={postedFields?.rows ?? data.fields.map(fieldFormRow)}
            errors={postedFields?.errors ?? []}
            formError={postedFields?.formError ?? null}
            canConfigure={canConfigure}
          />
        </Drawer>
      ) : null}
    </section>
  );
}
