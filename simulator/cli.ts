/**
 * `npm run sim -- [--port 0] [--host 127.0.0.1] [--api-key KEY] [--speed 1]
 *   [--timeline QUEUED:1000,BUILDING:3000,DEPLOYED:0] [--require-tenant] [--rate-limit N/ms]
 *   [--delete-delay ms] [--no-logs] [--commit-sha SHA]`
 *
 * Prints `Simulator listening at <url> (API key: <key>)`; with SIM_READY_FILE set, also writes
 * `{url, apiKey}` there once listening. Stops on SIGINT/SIGTERM.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { parseCliArgs, USAGE } from './cli-args.js';
import { startSimulator, type SimulatorOptions } from './index.js';

async function main(): Promise<void> {
  let options: SimulatorOptions | 'help';
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
  const sim = await startSimulator(options);
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
