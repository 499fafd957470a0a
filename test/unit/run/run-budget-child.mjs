// A worker process of the run budget ledger test: spends on the shared ledger as a trial in another Vitest worker
// would, checking the budget between spends. Arguments: ledger file, worker number, number of spends.
import { readFileSync } from 'node:fs';
import { runnerImport } from 'vite';

const [ledgerFile, worker, count] = process.argv.slice(2);
const { module } = await runnerImport(new URL('../../../src/run/run-budget.ts', import.meta.url).pathname);
const opening = JSON.parse(readFileSync(ledgerFile, 'utf8').split('\n')[0]);
const ledger = new module.RunLedger({ limits: opening.limits, ledger: ledgerFile, startedAt: opening.startedAt });
let spent = 0;
for (let i = 0; i < Number(count); i += 1) {
  await ledger.spend(`trial ${worker}`, `case#${i}`, { usd: null, tokens: 3 });
  await ledger.spent(opening.startedAt);
  spent += 1;
}
process.stdout.write(`${spent}\n`);
