import type { ClientApp } from "@contract";

export type BackofficeMode = "production" | "staging" | "dev";

/** When no template is configured the back-office pages live on this server. */
export const DEFAULT_BACKOFFICE_TEMPLATE = "/backoffice/{url_code}?country={country}&market={market}";

/**
 * Builds the URL of a back-office page (Business Insights /dashboard, the user profile store
 * /user_profiles) for a client: the mode's template with {url_code}, {country} and {market}
 * filled in, the page path appended, and the agent's trigger point when there is one.
 */
export function backofficeUrl(options: {
  template?: string;
  origin: string;
  app: Pick<ClientApp, "url_code" | "country" | "market">;
  page: string;
  triggerPoint?: string | null;
}) {
  const filled = (options.template || DEFAULT_BACKOFFICE_TEMPLATE)
    .replaceAll("{url_code}", encodeURIComponent(options.app.url_code))
    .replaceAll("{country}", encodeURIComponent(options.app.country.toLowerCase()))
    .replaceAll("{market}", encodeURIComponent(options.app.market));
  const url = new URL(filled, options.origin);
  url.pathname = `${url.pathname.replace(/\/$/, "")}/${options.page.replace(/^\//, "")}`;
  if (options.triggerPoint) url.searchParams.set("triggerPoint", options.triggerPoint);
  return url.toString();
}
