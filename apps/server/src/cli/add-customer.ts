/** npm run add-customer -- --hub <id|new> [--hub-name <name>] [--batch-address] --login <name> --password <pw> [--customer <name>] */
import { runAddCustomer } from './commands.ts';
import { runCli } from './run.ts';

await runCli(runAddCustomer);
