import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSessionStore } from '../../../shared/session/session-store';
import { clearClientSession } from '../../session-actions';
import { useLogout } from './UserMenu';

// Loaded the first time it opens: its form and the password rules' validator (zod) stay off the
// layout's first screen.
const PasswordDialog = lazy(() =>
  import('../../../features/auth/PasswordDialog').then((m) => ({ default: m.PasswordDialog })),
);

/**
 * The password dialog of both layouts: opened from the user menu, or right after login when the
 * user info says the password must change. Success: tokens cleared, tabs closed, back to login.
 */
export function SessionHost() {
  const open = useSessionStore((s) => s.passwordDialogOpen);
  const forced = useSessionStore((s) => s.mustChangePassword);
  const navigate = useNavigate();
  const doLogout = useLogout();
  // Once opened it stays mounted, so that closing it animates like any modal.
  const [needed, setNeeded] = useState(false);
  if ((open || forced) && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <PasswordDialog
        open={open}
        forced={forced}
        onClose={() => useSessionStore.getState().setPasswordDialogOpen(false)}
        onChanged={() => {
          clearClientSession();
          void navigate('/login', { replace: true });
        }}
        onLogout={() => void doLogout()}
      />
    </Suspense>
  );
}
