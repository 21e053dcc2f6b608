/** The console's frame, loaded by the router with import() so a customer never downloads it. */
export { AdminLayout } from './components/AdminLayout.tsx';
