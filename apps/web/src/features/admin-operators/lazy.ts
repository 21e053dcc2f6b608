/** The console's staff logins page (员工账号), loaded by the router with import(). */
export { AdminOperatorsPage } from './components/AdminOperatorsPage.tsx';
