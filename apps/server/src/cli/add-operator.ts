/** npm run add-operator -- <login> <password> */
import { runAddOperator } from './commands.ts';
import { runCli } from './run.ts';

await runCli(runAddOperator);
