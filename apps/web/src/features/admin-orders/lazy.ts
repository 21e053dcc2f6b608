/** The console's order pages, loaded by the router with import(). */
export { AdminOrderPage } from './components/AdminOrderPage.tsx';
export { AdminOrdersPage } from './components/AdminOrdersPage.tsx';
