import { FILE_STATUS_COLOURS, STATUS_COLOURS } from "@contract/values/knowledge";
import type { UrlStatus } from "@contract";
import * as ui from "~/styles/ui.css";

/** A URL, website or file status in the spec's colour (warning, info, secondary, success, default, error). */
export function StatusChip({ status }: { status: string }) {
  const tone = STATUS_COLOURS[status as UrlStatus] ?? FILE_STATUS_COLOURS[status] ?? "default";
  return (
    <span className={ui.chip[tone]} data-status={status}>
      {status}
    </span>
  );
}
