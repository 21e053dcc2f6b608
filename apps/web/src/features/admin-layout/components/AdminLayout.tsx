import { ApiOutlined, AppstoreOutlined, DownloadOutlined, IdcardOutlined, ProfileOutlined, TeamOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { PortalFrame } from '../../../components/PortalFrame.tsx';
import { useAnyAccount, useLogout } from '../../auth/index.ts';

const NAV = [
  { key: '/admin/orders', label: '订单', icon: <ProfileOutlined /> },
  { key: '/admin/hubs', label: '客户中心', icon: <TeamOutlined /> },
  { key: '/admin/catalogue', label: '产品目录导入', icon: <AppstoreOutlined /> },
  { key: '/admin/production', label: '生产文件', icon: <DownloadOutlined /> },
  { key: '/admin/webhooks', label: 'Webhook', icon: <ApiOutlined /> },
  { key: '/admin/operators', label: '员工账号', icon: <IdcardOutlined /> },
] as const;

/** The frame of the operator console: its navigation, who is logged in, logout. */
export function AdminLayout() {
  const account = useAnyAccount();
  const logout = useLogout();
  return <PortalFrame home="/admin/orders" after={<Tag color="blue">操作台</Tag>} nav={NAV} login={account.data?.login} onLogout={logout} />;
}
