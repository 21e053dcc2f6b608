import { ApiOutlined, AppstoreOutlined, DownloadOutlined, LogoutOutlined, ProfileOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Menu, Space, Tag, Typography, theme } from 'antd';
import { Suspense } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { FullPageSpin } from '../../../components/FullPageSpin.tsx';
import { PORTAL_NAME } from '../../../lib/brand.ts';
import { useAnyAccount, useLogout } from '../../auth/index.ts';

const NAV = [
  { key: '/admin/orders', label: '订单', icon: <ProfileOutlined /> },
  { key: '/admin/hubs', label: '客户中心', icon: <TeamOutlined /> },
  { key: '/admin/catalogue', label: '产品目录导入', icon: <AppstoreOutlined /> },
  { key: '/admin/production', label: '生产文件', icon: <DownloadOutlined /> },
  { key: '/admin/webhooks', label: 'Webhook', icon: <ApiOutlined /> },
] as const;

/** The frame of the operator console: its navigation, who is logged in, logout. */
export function AdminLayout() {
  const { pathname } = useLocation();
  const account = useAnyAccount();
  const logout = useLogout();
  const { token } = theme.useToken();
  const selected = NAV.filter((item) => pathname.startsWith(item.key)).map((item) => item.key);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex', alignItems: 'center', gap: 24, background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`, paddingInline: 24, position: 'sticky', top: 0, zIndex: 10,
        }}
      >
        <NavLink to="/admin/orders" style={{ display: 'flex', alignItems: 'center', gap: 8, flexShrink: 0 }}>
          <Typography.Text strong style={{ fontSize: 16 }}>{PORTAL_NAME}</Typography.Text>
          <Tag color="blue">操作台</Tag>
        </NavLink>
        <Menu
          mode="horizontal"
          selectedKeys={selected}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          items={NAV.map((item) => ({ key: item.key, icon: item.icon, label: <NavLink to={item.key}>{item.label}</NavLink> }))}
        />
        <Flex align="center" gap={4} style={{ flexShrink: 0 }}>
          <Space size={6}>
            <UserOutlined />
            <Typography.Text data-testid="account-login">{account.data?.login}</Typography.Text>
          </Space>
          <Button type="link" icon={<LogoutOutlined />} onClick={logout}>退出登录</Button>
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
