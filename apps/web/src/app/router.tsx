import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { FullPageSpin } from '../components/FullPageSpin.tsx';
import { RequireAuth, RequireOperator } from '../features/auth/index.ts';
import { RootRoute, type RouteHandle } from './RootRoute.tsx';

/** React.lazy for named exports: each page is its own chunk, so /login does not load the others. */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const LoginPage = lazyPage(() => import('../features/auth/lazy.ts'), 'LoginPage');
const AppLayout = lazyPage(() => import('../features/layout/lazy.ts'), 'AppLayout');
const BatchUploadRoute = lazyPage(() => import('./routes/batch-upload.tsx'), 'BatchUploadRoute');
const Payment1Route = lazyPage(() => import('./routes/payment1.tsx'), 'Payment1Route');
const OrdersRoute = lazyPage(() => import('./routes/orders.tsx'), 'OrdersRoute');
const NotFoundRoute = lazyPage(() => import('./routes/not-found.tsx'), 'NotFoundRoute');
const ConsoleNotFoundRoute = lazyPage(() => import('./routes/not-found.tsx'), 'ConsoleNotFoundRoute');
const AdminLayout = lazyPage(() => import('../features/admin-layout/lazy.ts'), 'AdminLayout');
const AdminOrdersPage = lazyPage(() => import('../features/admin-orders/lazy.ts'), 'AdminOrdersPage');
const AdminOrderPage = lazyPage(() => import('../features/admin-orders/lazy.ts'), 'AdminOrderPage');
const AdminHubsPage = lazyPage(() => import('../features/admin-hubs/lazy.ts'), 'AdminHubsPage');
const AdminOperatorsPage = lazyPage(() => import('../features/admin-operators/lazy.ts'), 'AdminOperatorsPage');
const CatalogueImportPage = lazyPage(() => import('../features/admin-catalogue/lazy.ts'), 'CatalogueImportPage');
const ProductionPage = lazyPage(() => import('../features/admin-production/lazy.ts'), 'ProductionPage');
const WebhooksPage = lazyPage(() => import('../features/admin-webhooks/lazy.ts'), 'WebhooksPage');

const handle = (title: string): RouteHandle => ({ title });

export const router = createBrowserRouter([
  {
    element: <RootRoute />,
    children: [
      {
        path: '/login',
        handle: handle('登录'),
        element: (
          <Suspense fallback={<FullPageSpin />}>
            <LoginPage />
          </Suspense>
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: (
              <Suspense fallback={<FullPageSpin />}>
                <AppLayout />
              </Suspense>
            ),
            children: [
              { index: true, element: <Navigate to="/batch-upload" replace /> },
              { path: '/batch-upload', handle: handle('批量上传下单'), element: <BatchUploadRoute /> },
              { path: '/payment1', handle: handle('确认订单'), element: <Payment1Route /> },
              { path: '/orders', handle: handle('我的订单'), element: <OrdersRoute /> },
            ],
          },
        ],
      },
      {
        // The operator console: its own guard and frame; a customer sees a refusal, never its data.
        path: '/admin',
        element: <RequireOperator />,
        children: [
          {
            element: (
              <Suspense fallback={<FullPageSpin />}>
                <AdminLayout />
              </Suspense>
            ),
            children: [
              { index: true, element: <Navigate to="/admin/orders" replace /> },
              { path: 'orders', handle: handle('订单 - 操作台'), element: <AdminOrdersPage /> },
              { path: 'orders/:id', handle: handle('订单详情 - 操作台'), element: <AdminOrderPage /> },
              { path: 'hubs', handle: handle('客户中心 - 操作台'), element: <AdminHubsPage /> },
              { path: 'operators', handle: handle('员工账号 - 操作台'), element: <AdminOperatorsPage /> },
              { path: 'catalogue', handle: handle('产品目录导入 - 操作台'), element: <CatalogueImportPage /> },
              { path: 'production', handle: handle('生产文件 - 操作台'), element: <ProductionPage /> },
              { path: 'webhooks', handle: handle('Webhook - 操作台'), element: <WebhooksPage /> },
              { path: '*', handle: handle('页面不存在 - 操作台'), element: <ConsoleNotFoundRoute /> },
            ],
          },
        ],
      },
      {
        path: '*',
        handle: handle('页面不存在'),
        element: (
          <Suspense fallback={<FullPageSpin />}>
            <NotFoundRoute />
          </Suspense>
        ),
      },
    ],
  },
]);
