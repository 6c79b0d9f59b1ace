/**
 * The order test files start in. Vitest starts the files it has timed before longest first, and
 * on a fresh clone (CI: nothing timed yet) the largest files first. The sync property test's
 * files are small but run for minutes with CI's SYNC_PROPERTY_RUNS: started last, one of them
 * ran alone on one worker for minutes after the rest had finished. They start first here, so the
 * other files fill the other worker meanwhile and then both.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const longest = /[\\/]tests[\\/]sync-integration[\\/]property(-postgres)?\.test\.ts$/;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [
      ...sorted.filter((file) => longest.test(file.moduleId)),
      ...sorted.filter((file) => !longest.test(file.moduleId)),
    ];
  }
}
