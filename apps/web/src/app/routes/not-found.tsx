import { Result } from 'antd';
import { Link } from 'react-router';

export function NotFoundRoute() {
  return <Result status="404" title="404" subTitle="您访问的页面不存在" extra={<Link to="/batch-upload">返回批量上传下单</Link>} />;
}

/** Inside the console: in the console's frame, back to its orders. */
export function ConsoleNotFoundRoute() {
  return <Result status="404" title="404" subTitle="您访问的页面不存在" extra={<Link to="/admin/orders">返回订单</Link>} />;
}
