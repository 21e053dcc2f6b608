import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Menu, Space, Typography, theme } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { PORTAL_NAME } from '../lib/brand.ts';
import { FullPageSpin } from './FullPageSpin.tsx';

export interface FrameNavItem {
  key: string;
  label: string;
  icon?: ReactNode;
}

interface Props {
  /** Where the brand links to. */
  home: string;
  /** Shown before the portal's name. */
  before?: ReactNode;
  /** Shown after the portal's name (the console's tag). */
  after?: ReactNode;
  nav: readonly FrameNavItem[];
  /** Who is logged in. */
  login: string | undefined;
  /** Shown between the login and 退出登录 (the customer's hub). */
  beside?: ReactNode;
  onLogout: () => void;
}

/** The frame of the logged-in pages, the customer's and the console's: brand, navigation, who is logged in, logout, the page. */
export function PortalFrame({ home, before, after, nav, login, beside, onLogout }: Props) {
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const selected = nav.filter((item) => pathname.startsWith(item.key)).map((item) => item.key);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex', alignItems: 'center', gap: 24, background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`, paddingInline: 24, position: 'sticky', top: 0, zIndex: 10,
        }}
      >
        <NavLink to={home} style={{ display: 'flex', alignItems: 'center', gap: 8, flexShrink: 0 }}>
          {before}
          <Typography.Text strong style={{ fontSize: 16 }}>{PORTAL_NAME}</Typography.Text>
          {after}
        </NavLink>
        <Menu
          mode="horizontal"
          selectedKeys={selected}
          // Room for its items: squeezed, antd folds them into ··· (a long hub name did that at 1920 px).
          style={{ flex: 1, minWidth: 220, borderBottom: 'none' }}
          items={nav.map((item) => ({ key: item.key, icon: item.icon, label: <NavLink to={item.key}>{item.label}</NavLink> }))}
        />
        <Flex align="center" gap={4} style={{ flexShrink: 0 }}>
          <Space size={6}>
            <UserOutlined />
            <Typography.Text data-testid="account-login" ellipsis title={login} style={{ maxWidth: 160, display: 'block' }}>{login}</Typography.Text>
          </Space>
          {beside}
          <Button type="link" icon={<LogoutOutlined />} onClick={onLogout}>退出登录</Button>
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
