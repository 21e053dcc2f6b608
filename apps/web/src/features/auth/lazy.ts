/** The login page, loaded by the router with import() so it stays out of the first chunk. */
export { LoginPage } from './components/LoginPage.tsx';
