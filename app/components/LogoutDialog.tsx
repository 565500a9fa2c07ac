import { Dialog } from "./Dialog";
import { LogoutConfirm } from "./LogoutConfirm";

/** The logout question over the page (the default export, so LogoutButton can load it with React.lazy). */
export default function LogoutDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog aria-labelledby="logout-dialog-title" onDismiss={onClose}>
      <h2 id="logout-dialog-title">Logout</h2>
      <LogoutConfirm onCancel={onClose} />
    </Dialog>
  );
}
