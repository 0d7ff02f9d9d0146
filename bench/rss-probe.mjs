// Loaded with `node --import` into the action by bench/upload.ts: reports the process's peak
// resident set size (kilobytes) on stderr when it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nbench-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
