// Summarizes the jest JSON reports written by run-official-suite.sh: totals, then every failed test with the
// first line of its failure message.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const totals = { run: 0, passed: 0, failed: 0, skipped: 0 };
const failures = [];
for (const name of readdirSync(dir)
  .filter((file) => file.endsWith('.test.ts.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  for (const suite of report.testResults) {
    for (const test of suite.assertionResults) {
      if (test.status === 'passed') totals.passed++;
      else if (test.status === 'failed') {
        totals.failed++;
        const message = (test.failureMessages[0] ?? '').split('\n').find((line) => line.trim()) ?? '';
        failures.push(`${name.replace(/\.json$/, '')} | ${test.fullName} | ${message.trim().slice(0, 240)}`);
      } else totals.skipped++;
    }
  }
}
totals.run = totals.passed + totals.failed;
console.log(JSON.stringify(totals));
for (const failure of failures) console.log(failure);
