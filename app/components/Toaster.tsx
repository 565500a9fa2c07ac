import { useEffect, useState } from "react";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";

export interface ToastMessage {
  type: "success" | "error" | "info";
  title?: string;
  description: string;
}

export const TOAST_DURATION_MS = 5000;

/**
 * Toasts at the top right. Server-rendered, so they show without JavaScript; with it they close
 * themselves after 5000 ms or on the close button.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const [visible, setVisible] = useState<ToastMessage | null>(toast);
  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  const tone = visible.type === "success" ? s.toastSuccess : visible.type === "error" ? s.toastError : "";
  return (
    <div className={s.toaster}>
      <div className={`${s.toast} ${tone}`} role={visible.type === "error" ? "alert" : "status"} data-testid="toast">
        <div>
          {visible.title ? <strong>{visible.title}</strong> : null}
          <div>{visible.description}</div>
        </div>
        <button type="button" aria-label="Close notification" onClick={() => setVisible(null)} className={ui.button.link}>
          ×
        </button>
      </div>
    </div>
  );
}
