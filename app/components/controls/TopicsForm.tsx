import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import {
  CONTROL_HELP_TEXTS,
  CONTROL_LABELS,
  DEFAULT_TRIGGER_POINT_LABEL,
  TOPIC_HELP_TEXTS,
  TOPIC_RESPONSE_LABELS,
  type TopicControlType,
} from "@contract/values/controls";
import { topicsBaseline, topicsDefaultValue, type TopicRow } from "~/lib/controls";
import type { loadTopics, saveTopics } from "~/server/controls.server";
import * as ui from "~/styles/ui.css";
import { useFormGeneration } from "~/lib/use-form-generation";
import { ControlsForm } from "./ControlsForm";
import { ControlsScreen } from "./ControlsScreen";
import * as s from "./controls.css";
import { useCanConfigure } from "~/lib/user";

type TopicsFormShape = ReturnType<typeof topicsDefaultValue>;

/**
 * Sensitive Topics (with their Disclaimer Text) or No-Go Topics (with their Canned Response):
 * 8 rows of topic and text, each column with its help text, each field with the API's message.
 */
export function TopicsForm({
  type,
  rows,
  lastResult,
  readOnly,
}: {
  type: TopicControlType;
  rows: TopicRow[];
  lastResult: SubmissionResult<string[]> | undefined;
  readOnly: boolean;
}) {
  const defaultValue = useMemo(() => topicsDefaultValue(rows), [rows]);
  const baseline = useMemo(() => topicsBaseline(rows), [rows]);
  const [form, fields] = useForm<TopicsFormShape>({ id: `${type}-form`, lastResult, defaultValue });
  const label = CONTROL_LABELS[type];
  const responseLabel = TOPIC_RESPONSE_LABELS[type];
  const topicHelpId = `${type}-topic-help`;
  const responseHelpId = `${type}-response-help`;
  return (
    <ControlsForm form={form} label={label} baseline={baseline} readOnly={readOnly}>
      <div className={s.tableWrap}>
        <table className={s.table} aria-label={label}>
          <thead>
            <tr>
              <th scope="col" className={s.rowNumber}>
                #
              </th>
              <th scope="col" className={s.topicColumn}>
                Topic
                <span id={topicHelpId} className={s.columnHelp}>
                  {TOPIC_HELP_TEXTS[type].topic}
                </span>
              </th>
              <th scope="col">
                {responseLabel}
                <span id={responseHelpId} className={s.columnHelp}>
                  {TOPIC_HELP_TEXTS[type].response}
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.rows.getFieldList().map((row, index) => {
              const { id, topic, disclaimer } = row.getFieldset();
              const n = index + 1;
              return (
                <tr key={row.key} data-row={n}>
                  <td className={s.rowNumber}>{n}</td>
                  <td>
                    <input
                      type="hidden"
                      name={id.name}
                      defaultValue={typeof id.initialValue === "string" ? id.initialValue : ""}
                    />
                    <input
                      {...getInputProps(topic, { type: "text", ariaDescribedBy: topicHelpId })}
                      aria-label={`Topic, row ${n}`}
                      className={`${ui.input} ${s.cellInput}`}
                    />
                    {topic.errors?.length ? (
                      <p id={topic.errorId} className={ui.fieldError}>
                        {topic.errors.join("\n")}
                      </p>
                    ) : null}
                  </td>
                  <td>
                    <textarea
                      {...getTextareaProps(disclaimer, { ariaDescribedBy: responseHelpId })}
                      aria-label={`${responseLabel}, row ${n}`}
                      rows={2}
                      className={`${ui.input} ${s.cellInput} ${s.textarea}`}
                    />
                    {disclaimer.errors?.length ? (
                      <p id={disclaimer.errorId} className={ui.fieldError}>
                        {disclaimer.errors.join("\n")}
                      </p>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </ControlsForm>
  );
}

/**
 * A whole topics page (Sensitive Topics, No-Go Topics): the trigger-point selector and the form,
 * read-only for a user who may only look.
 */
export function TopicsScreen({ type }: { type: TopicControlType }) {
  const data = useLoaderData<typeof loadTopics>();
  const lastResult = useActionData<typeof saveTopics>() as SubmissionResult<string[]> | undefined;
  const readOnly = !useCanConfigure(data.client.id);
  const generation = useFormGeneration();
  return (
    <ControlsScreen
      title={CONTROL_LABELS[type]}
      intro={CONTROL_HELP_TEXTS[type]}
      choice={data.choice}
      error={data.error}
    >
      <TopicsForm key={generation} type={type} rows={data.rows} lastResult={lastResult} readOnly={readOnly} />
      <InheritedTopics type={type} topics={data.inherited} defaultScreen={data.defaultScreen} />
    </ControlsScreen>
  );
}

/**
 * Default's topics, which the assistant applies under every trigger point beside its own: listed
 * under the form, read-only, with the way to Default's screen where they are edited.
 */
function InheritedTopics({
  type,
  topics,
  defaultScreen,
}: {
  type: TopicControlType;
  topics: { topic: string; disclaimer: string }[];
  defaultScreen: string;
}) {
  if (!topics.length) return null;
  const label = CONTROL_LABELS[type];
  const headingId = `${type}-inherited`;
  return (
    <section aria-labelledby={headingId} className={s.inherited}>
      <h2 id={headingId}>Also applied from {DEFAULT_TRIGGER_POINT_LABEL}</h2>
      <p className={ui.muted}>
        The assistant applies these {label} of {DEFAULT_TRIGGER_POINT_LABEL} here too.{" "}
        <Link to={defaultScreen}>
          Edit {DEFAULT_TRIGGER_POINT_LABEL}&apos;s {label}
        </Link>
      </p>
      <table className={s.table} aria-label={`${label} of ${DEFAULT_TRIGGER_POINT_LABEL}`}>
        <thead>
          <tr>
            <th scope="col" className={s.topicColumn}>
              Topic
            </th>
            <th scope="col">{TOPIC_RESPONSE_LABELS[type]}</th>
          </tr>
        </thead>
        <tbody>
          {topics.map((row, index) => (
            <tr key={index}>
              <td>{row.topic}</td>
              <td>{row.disclaimer}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
