import { exitWhenFlushed, keepGoingWhenStdoutCloses } from './lib/untrusted.js';
import { run } from './main.js';

keepGoingWhenStdoutCloses();

// Exit as soon as the result and the reports are written and stdout is flushed: a request
// still in flight in the background (a best-effort read, a GitHub call past its budget) must
// not keep the step alive until it times out.
void run().then(exitWhenFlushed);
