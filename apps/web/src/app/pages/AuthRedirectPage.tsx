import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Spin } from 'antd';

/**
 * /auth-redirect: the landing page of an external sign-in window. Opened by the login page it hands
 * its query to the opener's /login and closes; opened directly it goes to /login itself.
 */
export default function AuthRedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = `/login${location.search}`;
    const opener = window.opener as Window | null;
    if (opener && opener !== window) {
      try {
        opener.location.href = `${window.location.origin}${target}`;
        window.close();
        return;
      } catch {
        // cross-origin opener: fall through
      }
    }
    navigate(target, { replace: true });
  }, [location.search, navigate]);
  return <Spin fullscreen description="正在跳转..." />;
}
