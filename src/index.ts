import { getState, saveState } from '@actions/core';
import { registryLogout } from './commands/registry-login.js';
import { keepGoingWhenStdoutCloses } from './lib/untrusted.js';
import { run } from './main.js';

keepGoingWhenStdoutCloses();

// The runner runs this bundle again as the post step (`runs.post`), with the state the main
// step saved: the mark says which phase this is (only `registry-login` has post work).
const post = getState('phase') === 'main';
if (!post) saveState('phase', 'main');

// Exit as soon as the result and the reports are written and stdout is flushed (or after 5 s):
// a request still in flight in the background (a best-effort read, a GitHub call past its
// budget) must not keep the step alive until it times out. A write to a pipe is synchronous
// only while the pipe has room; past that (a slow reader, thousands of lines) Node queues it,
// and `process.exit()` drops the queue: the result and error lines last of all.
void (post ? registryLogout() : run()).then(() => {
  setTimeout(() => process.exit(), 5000);
  process.stdout.write('', () => process.exit());
});
