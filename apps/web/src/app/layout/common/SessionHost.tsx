import { useNavigate } from 'react-router';
import { PasswordDialog } from '../../../features/auth/PasswordDialog';
import { useSessionStore } from '../../../shared/session/session-store';
import { clearClientSession } from '../../session-actions';
import { useLogout } from './UserMenu';

/**
 * The password dialog of both layouts: opened from the user menu, or right after login when the
 * user info says the password must change. Success: tokens cleared, tabs closed, back to login.
 */
export function SessionHost() {
  const open = useSessionStore((s) => s.passwordDialogOpen);
  const forced = useSessionStore((s) => s.mustChangePassword);
  const navigate = useNavigate();
  const doLogout = useLogout();
  return (
    <PasswordDialog
      open={open}
      forced={forced}
      onClose={() => useSessionStore.getState().setPasswordDialogOpen(false)}
      onChanged={() => {
        clearClientSession();
        navigate('/login', { replace: true });
      }}
      onLogout={() => void doLogout()}
    />
  );
}
