/**
 * The one way an end-to-end test starts the control-plane simulator: started before the tests
 * of the file (or of the `describe` it is called in), closed after them. The value returned
 * stands for that simulator inside the tests. (Tests that need a fresh simulator per test, or
 * one beside a real agent server, call `startSimulator` themselves.)
 */
import { afterAll, beforeAll } from '@jest/globals';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator/index.js';

export function useSimulator(options?: SimulatorOptions): Simulator {
  let started: Simulator | undefined;
  beforeAll(async () => {
    started = await startSimulator(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): Simulator => {
    if (!started) throw new Error('The simulator starts in beforeAll: use it inside a test.');
    return started;
  };
  return new Proxy({} as Simulator, {
    get(_, prop) {
      const sim = running();
      const value: unknown = Reflect.get(sim, prop, sim);
      return typeof value === 'function' ? value.bind(sim) : value;
    },
    set(_, prop, value) {
      return Reflect.set(running(), prop, value);
    },
  });
}
