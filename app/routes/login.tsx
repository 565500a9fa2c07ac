import { getFormProps, getInputProps, useForm, type Submission } from "@conform-to/react";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import {
  LOGIN_TEXT,
  LOGIN_TITLE,
  TOO_MANY_SIGN_INS,
  UNSAVED_KEPT_WHEN_SIGNED_OUT,
  UNSAVED_WHEN_SIGNED_OUT,
} from "~/lib/messages";
import { useZodValidationOnFirstUse } from "~/lib/use-zod-validation-on-first-use";
import { ApiError, LIMIT_WAIT_SECONDS, UNSAVED_PARAM } from "~/server/api/client.server";
import { devSignIn, readDevLoginForm, safeRedirectTo, startSession } from "~/server/auth.server";
import { consoleContext } from "~/server/context.server";
import { commitSession, getSession } from "~/server/session.server";
import { hasUnsentPost } from "~/server/unsent-post.server";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";
import { readForm } from "~/server/http/form-data.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = consoleContext(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectTo(url.searchParams.get("redirectTo"));
  const session = await getSession(request, ctx);
  if (session.get("user") && session.get("refresh_token")) throw redirect(redirectTo);
  const authError = session.get("authError") ?? null;
  const google = ctx.config.google;
  return json(
    {
      redirectTo,
      authError,
      unsaved: url.searchParams.has(UNSAVED_PARAM),
      // The form posted is kept for the signed-in page to offer again (unsent-post.server.ts).
      kept: url.searchParams.has(UNSAVED_PARAM) && (await hasUnsentPost(request, ctx)),
      googleEnabled: Boolean(google),
      // One Tap is Google's own widget: offered only against the real Google, and only with JavaScript.
      oneTapClientId:
        google && google.authorizationUrl.startsWith("https://accounts.google.com/") ? google.clientId : null,
      devLogin: ctx.config.devLogin,
    },
    authError ? { headers: { "Set-Cookie": await commitSession(session, ctx) } } : undefined,
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = consoleContext(context);
  const formData = await readForm(request);
  const submission = readDevLoginForm(formData);
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  if (!ctx.config.devLogin) {
    return json(submission.reply({ formErrors: ["Development sign-in is disabled on this server"] }), { status: 403 });
  }
  const wait = await ctx.signInThrottle.consume(ctx.clientAddress, submission.value.email);
  if (wait !== null) return tooManySignIns(submission, wait);
  try {
    const tokens = await devSignIn(ctx, submission.value.email);
    return await startSession(request, ctx, tokens, safeRedirectTo(submission.value.redirectTo));
  } catch (error) {
    if (error instanceof ApiError && error.status === 429)
      return tooManySignIns(submission, Number(error.retryAfter ?? LIMIT_WAIT_SECONDS));
    // The API could not reach its data: not a failed sign-in, and the same one will do shortly.
    if (error instanceof ApiError && error.status === 503)
      return json(submission.reply({ formErrors: [error.message] }), error.answerInit);
    if (error instanceof ApiError && error.status < 500) {
      await ctx.signInThrottle.failed(submission.value.email);
      return json(submission.reply({ fieldErrors: { email: [error.message] } }), { status: error.status });
    }
    throw error;
  }
}

/** A refused sign-in's page says when to try again, as its data request does. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

function tooManySignIns(submission: Submission<unknown>, retryAfterSeconds: number) {
  return json(submission.reply({ formErrors: [TOO_MANY_SIGN_INS] }), {
    status: 429,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

const DEV_LOGIN_FORM_ID = "dev-login";

/** The form's schema, fetched when the form is first used (see useZodValidationOnFirstUse). */
const loadSchema = () => import("~/lib/forms.schema").then((module) => module.DevLoginForm);

export default function Login() {
  const { redirectTo, authError, unsaved, kept, googleEnabled, oneTapClientId, devLogin } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const onValidate = useZodValidationOnFirstUse(DEV_LOGIN_FORM_ID, loadSchema);
  const [form, fields] = useForm({
    id: DEV_LOGIN_FORM_ID,
    lastResult,
    constraint: undefined,
    onValidate,
    shouldValidate: "onSubmit",
  });
  useOneTap(oneTapClientId);

  return (
    <main className={s.loginPage}>
      <section className={`${ui.card} ${s.loginCard}`} aria-labelledby="login-title">
        <span className={s.loginLogoMark} aria-hidden="true" />
        <h1 id="login-title">{LOGIN_TITLE}</h1>
        <p>{LOGIN_TEXT}</p>
        {authError ? (
          <p role="alert" className={ui.fieldError}>
            {authError}
          </p>
        ) : unsaved ? (
          <p role="alert" className={ui.fieldError}>
            {kept ? UNSAVED_KEPT_WHEN_SIGNED_OUT : UNSAVED_WHEN_SIGNED_OUT}
          </p>
        ) : null}
        {googleEnabled ? (
          <Form method="post" action="/login/google" reloadDocument>
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" className={ui.button.primary}>
              Sign in with Google
            </button>
          </Form>
        ) : null}
        {devLogin ? (
          <Form method="post" {...getFormProps(form)} aria-labelledby="dev-login-title">
            <h2 id="dev-login-title">Development sign-in</h2>
            <p className={ui.muted}>For local use only: sign in as an existing user by email, without Google.</p>
            <input type="hidden" name="intent" value="dev" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <div className={ui.field}>
              <label htmlFor={fields.email.id} className={ui.label}>
                Email
              </label>
              <input {...getInputProps(fields.email, { type: "email" })} className={ui.input} autoComplete="email" />
              {fields.email.errors ? (
                <p id={fields.email.errorId} className={ui.fieldError}>
                  {fields.email.errors[0]}
                </p>
              ) : null}
            </div>
            {form.errors ? (
              <p id={form.errorId} className={ui.fieldError} role="alert">
                {form.errors[0]}
              </p>
            ) : null}
            <button type="submit" className={ui.button.secondary} disabled={navigation.state === "submitting"}>
              Sign in (development)
            </button>
          </Form>
        ) : null}
      </section>
    </main>
  );
}

/** Loads Google One Tap only in the browser: it posts an ID token to /login/google/one-tap. */
function useOneTap(clientId: string | null) {
  useEffect(() => {
    if (!clientId) return;
    const holder = document.createElement("div");
    holder.id = "g_id_onload";
    holder.dataset.client_id = clientId;
    holder.dataset.login_uri = new URL("/login/google/one-tap", window.location.href).toString();
    holder.dataset.auto_prompt = "true";
    document.body.appendChild(holder);
    const script = document.createElement("script");
    script.src = "https://accounts.google.com/gsi/client";
    script.async = true;
    document.body.appendChild(script);
    return () => {
      holder.remove();
      script.remove();
    };
  }, [clientId]);
}

export const meta: MetaFunction = () => [{ title: "Sign in · Assistant Console" }];
