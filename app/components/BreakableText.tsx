import { Fragment } from "react";

/*
 * Text of one long word in a narrow column, given places to break where a reader still sees whole
 * parts: an email address before its "@" ("admin" over "@example.com", not "admin@example.co" over
 * "m"), a web address after each "/" ("http://127.0.0.1:3311/" over "demo-site/tuition.html").
 */

/** The parts, with a line-break opportunity (<wbr>) between each two. */
function withBreaks(parts: string[]) {
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  return <>{at > 0 ? withBreaks([email.slice(0, at), email.slice(at)]) : email}</>;
}

/** A web address (or a file name, which has no "/" and stays whole). */
export function WebAddress({ address }: { address: string }) {
  return <>{withBreaks(address.split(/(?<=[^/]\/)(?=[^/])/))}</>;
}
