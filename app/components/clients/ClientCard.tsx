import { Link } from "@remix-run/react";
import type { ClientApp } from "@contract";
import { titleCase } from "~/lib/text";
import * as s from "./clients.css";
import { PlaceholderLogo } from "./PlaceholderLogo";

export type ClientCardData = Pick<ClientApp, "id" | "client_name" | "url_code" | "logo_url" | "status">;

/** One client in the list: opening it selects the client (the shell reads the path) and shows its agents. */
export function ClientCard({ client }: { client: ClientCardData }) {
  return (
    <Link to={`/${client.url_code}/`} className={s.clientCard} data-testid="client-card">
      {client.logo_url ? (
        <img src={client.logo_url} alt="" className={s.clientLogo} width={56} height={56} />
      ) : (
        <PlaceholderLogo className={s.clientLogo} />
      )}
      <div>
        <h2 className={s.clientName}>{client.client_name}</h2>
        <span className={s.status}>
          <span className={s.greenDot} aria-hidden="true" />
          {titleCase(client.status)}
        </span>
      </div>
    </Link>
  );
}
