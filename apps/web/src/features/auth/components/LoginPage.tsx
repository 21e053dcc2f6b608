import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setToken, tokenRefusal } from '../../../lib/auth-token.ts';
import { PORTAL_NAME } from '../../../lib/brand.ts';
import { errorMessage } from '../../../lib/http.ts';
import { accountQueryKey, getAccount, isOperator } from '../api/account.ts';
import { useAuthenticate, type Credentials } from '../api/authenticate.ts';

interface FromState {
  from?: { pathname?: string; search?: string };
}

function returnPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from?.pathname || from.pathname === '/login') return '/batch-upload';
  return `${from.pathname}${from.search ?? ''}`;
}

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const authenticate = useAuthenticate();
  // Why the server refused the last token (该账号已停用…), shown once.
  const [refusal] = useState(() => tokenRefusal());
  useEffect(() => void tokenRefusal(true), []);

  const onFinish = (credentials: Credentials) => {
    authenticate.mutate(credentials, {
      onSuccess: async ({ id_token }) => {
        setToken(id_token);
        // A new customer may be logging in on this browser: nothing cached may leak across.
        queryClient.clear();
        // An operator goes to the console, a customer to the batch page (or back where each came from).
        const account = await queryClient.fetchQuery({ queryKey: accountQueryKey, queryFn: ({ signal }) => getAccount(signal) }).catch(() => null);
        const back = returnPath(location.state);
        const isAdminPath = back === '/admin' || back.startsWith('/admin/');
        const target = isOperator(account) ? (isAdminPath ? back : '/admin') : isAdminPath ? '/batch-upload' : back;
        void navigate(target, { replace: true });
      },
    });
  };

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16, background: '#f0f2f5' }}>
      <Card style={{ width: 380, maxWidth: '100%' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginTop: 8 }}>
          {PORTAL_NAME}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          客户与印刷厂员工登录
        </Typography.Paragraph>
        <Form<Credentials>
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          onValuesChange={() => authenticate.isError && authenticate.reset()}
          disabled={authenticate.isPending}
        >
          <Form.Item label="用户名" name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input name="username" autoComplete="username" prefix={<UserOutlined />} autoFocus />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password name="password" autoComplete="current-password" prefix={<LockOutlined />} />
          </Form.Item>
          {!authenticate.isError && refusal && <Alert type="warning" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="login-reason" />}
          {authenticate.isError && (
            <Alert type="error" showIcon title={errorMessage(authenticate.error)} style={{ marginBottom: 16 }} />
          )}
          <Button type="primary" htmlType="submit" block loading={authenticate.isPending}>
            登录
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}
