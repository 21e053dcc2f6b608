import { Button, Result } from 'antd';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpin } from '../../../components/FullPageSpin.tsx';
import { getToken } from '../../../lib/auth-token.ts';
import { errorMessage, isApiError } from '../../../lib/http.ts';
import { isOperator, useAnyAccount } from '../api/account.ts';

/**
 * Guards the customer's pages (an operator is sent to /admin): without a token, or when /api/account refuses it (401), the
 * customer goes to /login, which brings them back here after logging in.
 */
export function RequireAuth() {
  const location = useLocation();
  const token = getToken();
  const account = useAnyAccount({ enabled: token !== null });

  if (token === null || (isApiError(account.error) && account.error.status === 401)) {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  if (account.isPending) return <FullPageSpin />;
  // The customer's pages have nothing for an operator (the server refuses its token there too).
  if (isOperator(account.data)) return <Navigate to="/admin" replace />;
  if (account.isError) {
    return (
      <Result
        status="error"
        title={errorMessage(account.error)}
        extra={
          <Button type="primary" onClick={() => void account.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  return <Outlet />;
}
