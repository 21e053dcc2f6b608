import { Result } from 'antd';
import { Link } from 'react-router';

const notFound = (to: string, label: string) => <Result status="404" title="404" subTitle="您访问的页面不存在" extra={<Link to={to}>{label}</Link>} />;

export function NotFoundRoute() {
  return notFound('/batch-upload', '返回批量上传下单');
}

/** Inside the console: in the console's frame, back to its orders. */
export function ConsoleNotFoundRoute() {
  return notFound('/admin/orders', '返回订单');
}
