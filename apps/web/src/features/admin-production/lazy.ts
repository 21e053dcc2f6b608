/** The production page of the operator console, loaded by the router with import(). */
export { ProductionPage } from './components/ProductionPage.tsx';
