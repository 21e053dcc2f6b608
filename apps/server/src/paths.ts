import { fileURLToPath } from 'node:url';

/**
 * A file of the server package (apps/server), by its path from there. The same whether this module
 * runs from its source (src/paths.ts: tsx in tests and `npm run dev`) or inside the bundle `npm start`
 * runs (dist/server.mjs, scripts/build-server.mjs): both sit one folder below apps/server. Files read
 * at run time (worker scripts, migrations, seed data) are found from here, never from the URL of the
 * module that reads them, which the bundle changes.
 */
export const serverFile = (rel: string) => fileURLToPath(new URL(rel, new URL('../', import.meta.url)));
