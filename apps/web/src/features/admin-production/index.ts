/**
 * The public entry of features/admin-production: the console's page of files for the press (zips of an
 * order, a batch, a day). The console mounts it through lazy.ts.
 */
export type { Selection as ProductionSelection } from './api/production-link.ts';
/** The production zip of one order, a batch or a day, downloaded (the order's page has its button). */
export { useProductionDownload } from './api/production-link.ts';
