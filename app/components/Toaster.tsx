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
 * two never stack on top of each other; with JavaScript each closes after its duration or on ×,
 * and stays while the pointer or the focus is on it.
 */
export function ToastProvider({ serverToast, children }: { serverToast: ToastMessage | null; children: ReactNode }) {
  const counter = useRef(0);
  const [current, setCurrent] = useState<{ id: number; toast: ToastMessage } | null>(
    serverToast ? { id: 0, toast: serverToast } : null,
  );
  // While the pointer rests on the toast or the focus is in it (its link, its ×), it stays: it is
  // being read or used. Its full time starts again once both have left.
  const [held, setHeld] = useState({ pointer: false, focus: false });
  const show = useCallback<ShowToast>((toast) => setCurrent({ id: ++counter.current, toast }), []);
  useEffect(() => {
    if (serverToast) show(serverToast);
  }, [serverToast, show]);
  const isHeld = held.pointer || held.focus;
  useEffect(() => {
    if (!current || isHeld) return;
    const timer = setTimeout(
      () => setCurrent((now) => (now?.id === current.id ? null : now)),
      current.toast.durationMs ?? TOAST_DURATION_MS,
    );
    return () => clearTimeout(timer);
  }, [current, isHeld]);
  const close = () => {
    setCurrent(null);
    setHeld({ pointer: false, focus: false });
  };
  return (
    <ToastContext.Provider value={show}>
      {children}
      {current ? <Toast toast={current.toast} onClose={close} onHeld={setHeld} /> : null}
    </ToastContext.Provider>
  );
}

type Held = { pointer: boolean; focus: boolean };

function Toast({
  toast,
  onClose,
  onHeld,
}: {
  toast: ToastMessage;
  onClose: () => void;
  onHeld: (update: (held: Held) => Held) => void;
}) {
  const tone = toast.type === "success" ? s.toastSuccess : toast.type === "error" ? s.toastError : "";
  return (
    <div
      className={s.toaster}
      onPointerEnter={() => onHeld((held) => ({ ...held, pointer: true }))}
      onPointerLeave={() => onHeld((held) => ({ ...held, pointer: false }))}
      onFocus={() => onHeld((held) => ({ ...held, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onHeld((held) => ({ ...held, focus: false }));
      }}
    >
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
