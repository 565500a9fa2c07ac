import { Dialog } from "./Dialog";
import { LogoutConfirm } from "./LogoutConfirm";

/** The logout question over the page (the default export, so LogoutButton can load it with React.lazy). */
export default function LogoutDialog({ onClose }: { onClose: () => void }) {
  return (
    // Described by its question, which a screen reader then reads with the dialog's name as it opens.
    <Dialog aria-labelledby="logout-dialog-title" aria-describedby="logout-dialog-question" onDismiss={onClose}>
      <h2 id="logout-dialog-title">Logout</h2>
      <LogoutConfirm onCancel={onClose} questionId="logout-dialog-question" />
    </Dialog>
  );
}
