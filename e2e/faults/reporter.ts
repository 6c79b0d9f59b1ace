/**
 * The fault suite's report (docs/faults.md): one line per fault, 'survived: …' or 'LOST: …' with the
 * evidence (the first lines of the failure), and a total.
 */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class FaultReporter implements Reporter {
  private survived = 0;
  private lost = 0;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') return;
    const name = test.titlePath().slice(-1)[0];
    if (result.status === 'passed') {
      this.survived += 1;
      console.log(`survived: ${name}`);
      return;
    }
    this.lost += 1;
    const evidence = (result.errors[0]?.message ?? result.status)
      // eslint-disable-next-line no-control-regex -- the terminal's colours
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((line) => line.trim())
      .slice(0, 6)
      .join('\n    ');
    console.log(`LOST: ${name}\n    ${evidence}`);
  }

  onEnd(result: FullResult): void {
    console.log(`faults: ${this.survived} survived, ${this.lost} lost (${result.status})`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
