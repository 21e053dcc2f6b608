/**
 * The public entry of features/auth: Login and the account: who is logged in, their hub, logging out,
 * the guards of the pages (customer's, operator's). Other features and app/ import only this.
 */
export { isOperator, useAccount, useAnyAccount } from './api/account.ts';
export { useCustomerHub } from './api/customer-hub.ts';
export { RequireAuth } from './components/RequireAuth.tsx';
export { RequireOperator } from './components/RequireOperator.tsx';
export { useLogout } from './hooks/useLogout.ts';
