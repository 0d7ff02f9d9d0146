/**
 * Jest setup (`setupFilesAfterEnv`, each test file): the workflow commands the runner module
 * writes (`::add-mask::` for each secret a test registers, annotations of the real logger) go
 * nowhere instead of into the test results. A test that checks them captures them itself with
 * `captureOutputForTests`, which restores this sink afterwards. Failures are not affected:
 * Jest reports them through its own reporter, never through this stdout.
 */
import { captureOutputForTests } from './fakes.js';

captureOutputForTests(() => undefined);
