import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the calling file's tests with the process in a zone none of the tested zones share, so code
 * that used the machine's zone instead of the user's would come out wrong.
 */
export function inAnotherMachineZone(zone = 'Asia/Kolkata'): void {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });
}
