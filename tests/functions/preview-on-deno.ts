/**
 * Runs preview-cases.ts on Deno, as Supabase's Edge Runtime would run the functions' modules:
 * `deno run --config supabase/functions/deno.json tests/functions/preview-on-deno.ts '<config>'`
 * prints the results as JSON. Started by preview-deno.test.ts.
 */
import process from 'node:process';
import { runPreviewCases, type CaseConfig } from './preview-cases.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as CaseConfig;
process.stdout.write(JSON.stringify(await runPreviewCases(config)));
