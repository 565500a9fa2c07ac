import { redirect } from "@remix-run/node";

/** The onboard form's Cancel goes to /admin; the client list is the admin home. */
export const loader = () => redirect("/clients");
