/**
 * `npm run sim -- [options]`: every option is described in `USAGE` (`npm run sim -- --help`).
 *
 * Prints `Simulator listening at <url> (API key: <key>)`; with SIM_READY_FILE set, also writes
 * `{url, apiKey}` there once listening. Stops on SIGINT/SIGTERM.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseCliArgs, USAGE, type CliOptions } from './cli-args.js';
import { seedFromJson } from './langsmith-controls.js';
import { startSimulator } from './index.js';

async function main(): Promise<void> {
  let options: CliOptions | 'help';
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const { faults = [], langsmithSeed, ...simOptions } = options;
  const sim = await startSimulator(simOptions);
  for (const fault of faults) sim.inject(fault);
  if (langsmithSeed) {
    try {
      seedFromJson(sim.langsmith, readFileSync(langsmithSeed, 'utf8'));
    } catch (error) {
      console.error(`--langsmith-seed ${langsmithSeed}: ${(error as Error).message}`);
      await sim.close();
      process.exit(2);
    }
  }
  console.log(`Simulator listening at ${sim.url} (API key: ${sim.apiKey})`);
  const readyFile = process.env.SIM_READY_FILE;
  if (readyFile) {
    // Written whole, then renamed: a script polling for the file never reads half of it.
    writeFileSync(`${readyFile}.tmp`, JSON.stringify({ url: sim.url, apiKey: sim.apiKey }));
    renameSync(`${readyFile}.tmp`, readyFile);
  }
  const stop = () => {
    setTimeout(() => process.exit(0), 2000).unref();
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
