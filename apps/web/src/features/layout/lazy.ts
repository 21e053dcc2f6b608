/** The page frame, loaded by the router with import() so it stays out of the first chunk. */
export { AppLayout } from './components/AppLayout.tsx';
