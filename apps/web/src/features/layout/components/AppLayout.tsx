import { PrinterOutlined, ShopOutlined } from '@ant-design/icons';
import { Divider, Space, Typography, theme } from 'antd';
import { PortalFrame } from '../../../components/PortalFrame.tsx';
import { useAccount, useCustomerHub, useLogout } from '../../auth/index.ts';

const NAV = [
  { key: '/batch-upload', label: '批量上传下单' },
  { key: '/orders', label: '我的订单' },
] as const;

/** The frame of every logged-in page of the customer: brand, navigation, who is logged in and for which hub, logout. */
export function AppLayout() {
  const account = useAccount();
  const hub = useCustomerHub();
  const logout = useLogout();
  const { token } = theme.useToken();
  const beside = (
    <>
      {hub.data && (
        <>
          <Divider orientation="vertical" />
          <Space size={6}>
            <ShopOutlined />
            {/* Cut, whole on hover: a hub name of 100 characters pushed 退出登录 off a 1280 px screen and folded the menu (LAN walk). */}
            <Typography.Text type="secondary" data-testid="hub-name" ellipsis title={hub.data.name} style={{ maxWidth: 240, display: 'block' }}>
              {hub.data.name}
            </Typography.Text>
          </Space>
        </>
      )}
      <Divider orientation="vertical" />
    </>
  );
  return (
    <PortalFrame
      home="/batch-upload"
      before={<PrinterOutlined style={{ fontSize: 22, color: token.colorPrimary }} />}
      nav={NAV}
      login={account.data?.login}
      beside={beside}
      onLogout={logout}
    />
  );
}
