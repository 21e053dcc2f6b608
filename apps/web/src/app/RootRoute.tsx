import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { Outlet, useMatches, useNavigate } from 'react-router';
import { pageTitle } from '../lib/brand.ts';
import { configureHttp } from '../lib/http.ts';
import { queryClient } from '../lib/query-client.ts';

export interface RouteHandle {
  title?: string;
}

/**
 * Top of the route tree, inside both the router and antd's App: connects the HTTP client to
 * navigation and toasts, and names the browser tab after the deepest route with a title.
 */
export function RootRoute() {
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const matches = useMatches();

  useEffect(() => {
    configureHttp({
      onUnauthorized: () => {
        // The page's toasts were about a batch the login page does not show (they stayed over it).
        message.destroy();
        void Promise.resolve(navigate('/login', { replace: true })).then(() => queryClient.clear());
      },
      // One key: when the server is down, ten failing calls show one toast, not ten.
      notifyError: (text) => void message.error({ content: text, key: 'http-error' }),
    });
  }, [navigate, message]);

  const title = matches
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .filter((t): t is string => Boolean(t))
    .at(-1);
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);

  return <Outlet />;
}
