/**
 * The public entry of features/auth: Login and the account: who is logged in, their hub, logging out,
 * the guard of the pages. Other features and app/ import only this.
 */
export { useAccount } from './api/account.ts';
export { useCustomerHub } from './api/customer-hub.ts';
export { RequireAuth } from './components/RequireAuth.tsx';
export { useLogout } from './hooks/useLogout.ts';
