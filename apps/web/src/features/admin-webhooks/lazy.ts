/** The webhook page of the operator console, loaded by the router with import(). */
export { WebhooksPage } from './components/WebhooksPage.tsx';
