import { Link } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";

export interface ToastMessage {
  type: "success" | "error" | "info";
  title?: string;
  description: string;
  /** How long it stays (5000 ms unless said otherwise; upload toasts 3 s). */
  durationMs?: number;
  /** A console page to go on to. */
  link?: { to: string; label: string };
}

export const TOAST_DURATION_MS = 5000;

type ShowToast = (toast: ToastMessage) => void;
const ToastContext = createContext<ShowToast>(() => {});

/** Raises a toast from the browser (copy, upload, a refused value) in the one place toasts appear. */
export const useToast = () => useContext(ToastContext);

/**
 * The one toast area, top right: the server's flash toast (rendered on the server, so it shows
 * without JavaScript) and toasts raised in the browser. The newest replaces the one showing, so
 * two never stack on top of each other; with JavaScript each closes after its duration or on ×.
 */
export function ToastProvider({ serverToast, children }: { serverToast: ToastMessage | null; children: ReactNode }) {
  const counter = useRef(0);
  const [current, setCurrent] = useState<{ id: number; toast: ToastMessage } | null>(
    serverToast ? { id: 0, toast: serverToast } : null,
  );
  const show = useCallback<ShowToast>((toast) => setCurrent({ id: ++counter.current, toast }), []);
  useEffect(() => {
    if (serverToast) show(serverToast);
  }, [serverToast, show]);
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(
      () => setCurrent((now) => (now?.id === current.id ? null : now)),
      current.toast.durationMs ?? TOAST_DURATION_MS,
    );
    return () => clearTimeout(timer);
  }, [current]);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {current ? <Toast toast={current.toast} onClose={() => setCurrent(null)} /> : null}
    </ToastContext.Provider>
  );
}

function Toast({ toast, onClose }: { toast: ToastMessage; onClose: () => void }) {
  const tone = toast.type === "success" ? s.toastSuccess : toast.type === "error" ? s.toastError : "";
  return (
    <div className={s.toaster}>
      <div className={`${s.toast} ${tone}`} role={toast.type === "error" ? "alert" : "status"} data-testid="toast">
        <div>
          {toast.title ? <strong>{toast.title}</strong> : null}
          <div>{toast.description}</div>
          {toast.link ? <Link to={toast.link.to}>{toast.link.label}</Link> : null}
        </div>
        <button type="button" aria-label="Close notification" onClick={onClose} className={ui.button.link}>
          ×
        </button>
      </div>
    </div>
  );
}
