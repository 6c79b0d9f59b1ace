/** The fault suite's stacks serve the built app: built once before the run (FAULTS_SKIP_BUILD=1 reuses dist). */
import { spawnSync } from 'node:child_process';

export default function build(): void {
  if (process.env.FAULTS_SKIP_BUILD === '1') return;
  const result = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status ?? result.signal})`);
}
