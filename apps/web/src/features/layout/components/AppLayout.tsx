import { LogoutOutlined, PrinterOutlined, ShopOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Divider, Flex, Layout, Menu, Space, Typography, theme } from 'antd';
import { Suspense } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { FullPageSpin } from '../../../components/FullPageSpin.tsx';
import { PORTAL_NAME } from '../../../lib/brand.ts';
import { useAccount, useCustomerHub, useLogout } from '../../auth/index.ts';

const NAV = [
  { key: '/batch-upload', label: '批量上传下单' },
  { key: '/orders', label: '我的订单' },
] as const;

/** The frame of every logged-in page: brand, navigation, who is logged in, logout. */
export function AppLayout() {
  const { pathname } = useLocation();
  const account = useAccount();
  const hub = useCustomerHub();
  const logout = useLogout();
  const { token } = theme.useToken();

  const selected = NAV.filter((item) => pathname.startsWith(item.key)).map((item) => item.key);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 24,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          paddingInline: 24,
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        <NavLink to="/batch-upload" style={{ display: 'flex', alignItems: 'center', gap: 8, flexShrink: 0 }}>
          <PrinterOutlined style={{ fontSize: 22, color: token.colorPrimary }} />
          <Typography.Text strong style={{ fontSize: 16 }}>
            {PORTAL_NAME}
          </Typography.Text>
        </NavLink>
        <Menu
          mode="horizontal"
          selectedKeys={selected}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          items={NAV.map((item) => ({ key: item.key, label: <NavLink to={item.key}>{item.label}</NavLink> }))}
        />
        <Flex align="center" gap={4} style={{ flexShrink: 0 }}>
          <Space size={6}>
            <UserOutlined />
            <Typography.Text data-testid="account-login">{account.data?.login}</Typography.Text>
          </Space>
          {hub.data && (
            <>
              <Divider orientation="vertical" />
              <Space size={6}>
                <ShopOutlined />
                <Typography.Text type="secondary" data-testid="hub-name">
                  {hub.data.name}
                </Typography.Text>
              </Space>
            </>
          )}
          <Divider orientation="vertical" />
          <Button type="link" icon={<LogoutOutlined />} onClick={logout}>
            退出登录
          </Button>
        </Flex>
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>
        <Suspense fallback={<FullPageSpin />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
