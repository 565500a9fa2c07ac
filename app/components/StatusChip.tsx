import { STATUS_COLOURS, type UrlStatus } from "../../contract";
import * as ui from "~/styles/ui.css";

/** A URL or website status in the spec's colour (warning, info, secondary, success, default, error). */
export function StatusChip({ status }: { status: string }) {
  const tone = STATUS_COLOURS[status as UrlStatus] ?? "default";
  return <span className={ui.chip[tone]} data-status={status}>{status}</span>;
}
