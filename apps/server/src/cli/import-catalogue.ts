/** npm run import-catalogue -- <catalogue.json> [--templates <dir>] [--images <dir>] [--prune] */
import { runImportCatalogue } from './commands.ts';
import { runCli } from './run.ts';

await runCli(runImportCatalogue);
