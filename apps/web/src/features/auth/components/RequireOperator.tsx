import { Button, Result } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpin } from '../../../components/FullPageSpin.tsx';
import { getToken } from '../../../lib/auth-token.ts';
import { errorMessage, isApiError } from '../../../lib/http.ts';
import { isOperator, useAnyAccount } from '../api/account.ts';
import { useLogout } from '../hooks/useLogout.ts';

/**
 * Guards the console (/admin): without a token to /login; a customer sees a refusal and no data (the
 * server refuses its token on every /api/admin call as well).
 */
export function RequireOperator() {
  const location = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  const token = getToken();
  const account = useAnyAccount({ enabled: token !== null });

  if (token === null || (isApiError(account.error) && account.error.status === 401)) {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  if (account.isPending) return <FullPageSpin />;
  if (account.isError) {
    return (
      <Result status="error" title={errorMessage(account.error)}
        extra={<Button type="primary" onClick={() => void account.refetch()}>重试</Button>} />
    );
  }
  if (!isOperator(account.data)) {
    return (
      <Result
        status="403"
        title="无权访问"
        subTitle="仅限印刷厂操作员访问，请使用操作员账号登录"
        extra={[
          <Button key="back" type="primary" onClick={() => void navigate('/batch-upload', { replace: true })}>返回批量上传下单</Button>,
          <Button key="logout" onClick={logout}>切换账号</Button>,
        ]}
      />
    );
  }
  return <Outlet />;
}
