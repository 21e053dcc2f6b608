/** The console's hubs page, loaded by the router with import(). */
export { AdminHubsPage } from './components/AdminHubsPage.tsx';
