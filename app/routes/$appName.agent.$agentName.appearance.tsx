import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { agentPageMeta } from "~/lib/page-title";
import { useFocusFirstProblemOnAnswer } from "~/components/useFocusFirstProblem";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { APPEARANCE_DEFAULTS, APPEARANCE_MESSAGES } from "@contract/values/appearance";
import { AppearanceFields } from "~/components/appearance/AppearanceFields";
import { LivePreview } from "~/components/appearance/LivePreview";
import { SettingValue } from "~/components/appearance/SettingValue";
import * as s from "~/components/appearance/appearance.css";
import { RouteError } from "~/components/RouteError";
import { SaveBar } from "~/components/SaveBar";
import { useHydrated } from "~/components/useHydrated";
import { useToast } from "~/components/Toaster";
import { TriggerPointSelect } from "~/components/TriggerPointSelect";
import { ApiError } from "~/server/api/client.server";
import { appearanceApi } from "~/server/api/appearance-api.server";
import { testingApi } from "~/server/api/testing-api.server";
import { GateSummary } from "~/components/testing/GateSummary";
import { ACCEPT_FAILING_FIELD } from "~/lib/accept-failing";
import { gateRunToAccept } from "~/lib/test-questions";
import { appearanceBaseline, previewFrame, valuesFromForm } from "~/lib/appearance";
import { PreviewImages } from "~/lib/preview-images";
import { formatDateTime } from "~/lib/dates";
import { handleAppearanceAction, type AppearanceActionData } from "~/server/appearance.server";
import { requireClient, requireTriggerPoint } from "~/server/clients.server";
import { requireConfigure } from "~/server/permissions.server";
import { consoleContext } from "~/server/context.server";
import * as ui from "~/styles/ui.css";
import { useCanConfigure } from "~/lib/user";
import { KEEPS_EDITS } from "~/components/LeaveGuard";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Appearance: the widget's stage values by section, a live preview of the real widget, and the push to production. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const url = new URL(request.url);
  const choice = requireTriggerPoint(app, url.pathname, url.searchParams);
  try {
    const appearance = await appearanceApi.get(api, app.id, choice.triggerPoint);
    const confirming = url.searchParams.get("confirm") === "push";
    const [diff, gate] = confirming
      ? await Promise.all([
          appearanceApi.diff(api, app.id, choice.triggerPoint),
          testingApi.gate(api, app.id, choice.triggerPoint),
        ])
      : [null, null];
    return json({
      appId: app.id,
      choice,
      values: appearance.data,
      pushedAt: appearance.pushed_at,
      diff,
      gate,
      error: null,
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return json({
      appId: app.id,
      choice,
      values: null,
      pushedAt: null,
      diff: null,
      gate: null,
      error: APPEARANCE_MESSAGES.loadFailed,
    });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  await requireConfigure(api, app.id);
  const url = new URL(request.url);
  const choice = requireTriggerPoint(app, url.pathname, url.searchParams);
  url.searchParams.delete("index");
  return handleAppearanceAction(request, api, app.id, choice.triggerPoint, `${url.pathname}${url.search}`);
}

export default function Appearance() {
  const data = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as AppearanceActionData | undefined;
  const navigation = useNavigation();
  const location = useLocation();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  // A refused save takes the keyboard to the first setting to fix, as the other forms do.
  useFocusFirstProblemOnAnswer(form);
  const frame = useRef<HTMLIFrameElement>(null);
  const timer = useRef<number>();
  const previewImages = useRef(new PreviewImages());
  useEffect(() => () => previewImages.current.clear(), []);
  const [dirty, setDirty] = useState(false);
  const [frameSize, setFrameSize] = useState(() => previewFrame(data.values ?? APPEARANCE_DEFAULTS));
  const canConfigure = useCanConfigure(data.appId);
  const hydrated = useHydrated();
  useEffect(() => {
    if (data.error) toast({ type: "error", description: data.error });
  }, [data.error, toast]);
  // Fresh values remount the fields (their key), so they start clean. (What was typed before
  // hydration comes back as input events once hydrated: app/lib/typed-before-hydration.ts.)
  // Only a change of the saved values does: the push question reloads the same values, and what was
  // typed meanwhile is still unsaved.
  const savedValues = JSON.stringify(data.values);
  useEffect(() => setDirty(false), [savedValues]);

  /**
   * Sends what the form holds now to the preview (unsaved values included), 300 ms after typing
   * settles, and sizes the frame so the panel shows at its real size.
   */
  const sendToPreview = () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (!form.current) return;
      const formData = new FormData(form.current);
      const values = { ...data.values, ...valuesFromForm(formData), ...previewImages.current.show(formData) };
      frame.current?.contentWindow?.postMessage({ type: "assistant-preview", values }, window.location.origin);
      const next = previewFrame(values);
      setFrameSize((now) =>
        now.width === next.width && now.height === next.height && now.left === next.left ? now : next,
      );
    }, 300);
  };
  const search = new URLSearchParams(location.search);
  search.delete("confirm");
  search.delete("failing");
  const toAccept = gateRunToAccept(data.gate);
  // The second confirmation: the operator has seen the questions stage fails and pushes anyway.
  const confirmingFailures = toAccept !== null && new URLSearchParams(location.search).get("failing") === "confirm";
  const here = `${location.pathname}${search.size ? `?${search}` : ""}`;
  const withConfirm = `${location.pathname}?${new URLSearchParams({ ...Object.fromEntries(search), confirm: "push" })}`;

  if (!data.values) {
    return (
      <section>
        <h1>Appearance</h1>
        <TriggerPointSelect choice={data.choice} />
        <p role="alert" className={ui.fieldError}>
          {data.error}
        </p>
      </section>
    );
  }
  const values = posted?.values ? { ...data.values, ...posted.values } : data.values;
  return (
    <section>
      <div className={ui.pageHeader}>
        <h1>Appearance</h1>
        {canConfigure ? (
          <Link to={withConfirm} preventScrollReset className={ui.button.secondary} {...KEEPS_EDITS}>
            Push to production
          </Link>
        ) : null}
      </div>
      {/* Without JavaScript the push link leaves the page; with it, what is typed stays (and is said so). */}
      {canConfigure && !hydrated ? <p className={ui.muted}>{APPEARANCE_MESSAGES.saveBeforePush}</p> : null}
      <TriggerPointSelect choice={data.choice} />
      {data.diff && !data.diff.changes.length ? (
        // Nothing differs: no question to answer, and no Yes that would push nothing.
        <div className={s.confirm} role="group" aria-label="Push to production">
          <p role="alert">{APPEARANCE_MESSAGES.alreadyPushed}</p>
          {dirty ? <p className={ui.fieldError}>{APPEARANCE_MESSAGES.unsavedNotPushed}</p> : null}
          <div className={ui.toolbar}>
            <Link to={here} className={ui.button.secondary} preventScrollReset {...KEEPS_EDITS}>
              Close
            </Link>
          </div>
        </div>
      ) : data.diff ? (
        <Form method="post" className={s.confirm} aria-label="Push to production" {...KEEPS_EDITS}>
          <p role="alert">
            <strong>{APPEARANCE_MESSAGES.confirmPush}</strong> Production will show these stage values:
          </p>
          <table aria-label="Differences between production and stage">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Production</th>
                <th scope="col">Stage</th>
              </tr>
            </thead>
            <tbody>
              {data.diff.changes.map((change) => (
                <tr key={change.internalName}>
                  <td>{change.label}</td>
                  <td>
                    <SettingValue internalName={change.internalName} label={change.label} value={change.production} />
                  </td>
                  <td>
                    <SettingValue internalName={change.internalName} label={change.label} value={change.stage} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {dirty ? <p className={ui.fieldError}>{APPEARANCE_MESSAGES.unsavedNotPushed}</p> : null}
          {data.gate ? <GateSummary gate={data.gate} /> : null}
          {confirmingFailures ? (
            <>
              <p>
                <strong>Push to production although stage fails these questions?</strong>
              </p>
              <input type="hidden" name={ACCEPT_FAILING_FIELD} value={String(toAccept)} />
            </>
          ) : null}
          <div className={ui.toolbar}>
            <Link to={here} className={ui.button.secondary} preventScrollReset {...KEEPS_EDITS}>
              No
            </Link>
            <button type="submit" name="intent" value="push" className={ui.button.primary}>
              {confirmingFailures ? "Push anyway" : "Yes"}
            </button>
          </div>
        </Form>
      ) : null}
      {data.pushedAt ? (
        <p className={ui.muted}>
          {/* In UTC, as the server renders it: a browser's own zone or locale would differ from the
              server's text, and React would then throw the page away and render it again, losing
              what was typed before the scripts ran. */}
          Last pushed to production <time dateTime={data.pushedAt}>{formatDateTime(data.pushedAt)} UTC</time>.
        </p>
      ) : null}
      <div className={s.layout}>
        <Form
          ref={form}
          method="post"
          encType="multipart/form-data"
          noValidate
          aria-label="Appearance settings"
          onInput={() => {
            setDirty(true);
            sendToPreview();
          }}
          onChange={() => {
            setDirty(true);
            sendToPreview();
          }}
        >
          {/* What this page loaded: a save sends only what was changed here (appearance.server.ts). */}
          <input
            type="hidden"
            name="loaded"
            value={JSON.stringify(posted?.loaded ?? appearanceBaseline(data.values))}
          />
          {canConfigure ? (
            <SaveBar
              dirty={dirty || Boolean(posted)}
              saving={navigation.state === "submitting"}
              message={posted?.formError ?? null}
              messageTone="error"
            />
          ) : null}
          <AppearanceFields
            key={JSON.stringify(data.values)}
            values={values}
            errors={posted?.fieldErrors ?? {}}
            readOnly={!canConfigure}
          />
        </Form>
        <LivePreview
          src={`${location.pathname.replace(/\/$/, "")}/preview${data.choice.selectable && data.choice.triggerPoint ? `?trigger_point=${encodeURIComponent(data.choice.triggerPoint)}` : ""}`}
          frame={frame}
          size={frameSize}
          onLoad={sendToPreview}
        />
      </div>
    </section>
  );
}

/** The page's name and its client's, as every client page's title has. */
export const meta: MetaFunction = (args) => agentPageMeta(args, "Appearance");

export function ErrorBoundary() {
  return <RouteError />;
}
