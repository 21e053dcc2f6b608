/** The console's catalogue import, loaded by the router with import(). */
export { CatalogueImportPage } from './components/CatalogueImportPage.tsx';
