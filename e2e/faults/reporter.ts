/**
 * The fault suite's report (docs/faults.md): one line per fault, 'survived: …' or 'LOST: …' with the
 * evidence (the first lines of each error, where it was raised: a timeout's action), and a total.
 */
import { relative } from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';

/** The test's last actions and expectations, with their times: where a timeout's test was waiting. */
function lastSteps(steps: TestStep[], count = 8): string[] {
  const flat: TestStep[] = [];
  const walk = (list: TestStep[]) => {
    for (const step of list) {
      if (step.category === 'pw:api' || step.category === 'expect' || step.category === 'test.step') flat.push(step);
      else walk(step.steps);
    }
  };
  walk(steps);
  return flat.slice(-count).map((step) => {
    const time = step.duration < 0 ? 'still running' : `${Math.round(step.duration)} ms`;
    return `${step.title} (${time}${step.error ? ', failed' : ''})`;
  });
}

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
    // A timeout's first error says only that; the next names the action that was waiting, and where.
    const errors: TestError[] = result.errors.length ? result.errors : [{ message: result.status }];
    const evidence = errors
      .map((error) => {
        const where = error.location ? ` (${relative(process.cwd(), error.location.file)}:${error.location.line})` : '';
        const lines = (error.message ?? '')
          // eslint-disable-next-line no-control-regex -- the terminal's colours
          .replace(/\u001b\[[0-9;]*m/g, '')
          .split('\n')
          .filter((line) => line.trim())
          .slice(0, 8);
        return [`${lines[0] ?? ''}${where}`, ...lines.slice(1)].join('\n    ');
      })
      .join('\n    ');
    console.log(
      `LOST: ${name}\n    ${evidence}\n    the last steps:\n      ${lastSteps(result.steps).join('\n      ')}`,
    );
  }

  onEnd(result: FullResult): void {
    console.log(`faults: ${this.survived} survived, ${this.lost} lost (${result.status})`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
