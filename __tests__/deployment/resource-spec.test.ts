import { describe, expect, it } from '@jest/globals';
import { mergeResourceSpec } from '../../src/deployment/resource-spec.js';
import type { Deployment } from '../../src/api/schemas.js';
import { recordingLogger } from '../helpers/fakes.js';
import { dockerConfig } from './upsert-plane.js';

const live = (resource_spec: Record<string, unknown> | null) =>
  ({ name: 'agent', source_config: { resource_spec } }) as unknown as Deployment;

describe('mergeResourceSpec', () => {
  it('keeps the live keys the input does not give, and logs the keys it changes', () => {
    const logger = recordingLogger();
    const config = dockerConfig({ resourceSpec: { cpu: 2, memory_mb: 1024, labels: { a: '1' } } });
    const found = live({ cpu: 1, memory_mb: 1024, max_scale: 5, labels: { a: '1' } });
    const merged = mergeResourceSpec(config, found, logger);
    expect(merged.resourceSpec).toEqual({
      cpu: 2,
      memory_mb: 1024,
      max_scale: 5,
      labels: { a: '1' },
    });
    expect(logger.messages('info')).toEqual([
      "resource-spec: merged with the live resource spec of 'agent': changes cpu; keeps max_scale " +
        '(the platform replaces the whole object, so the keys not given are sent as they are live).',
    ]);
  });

  it('no live spec, or no resource-spec input: nothing to merge, nothing logged', () => {
    const logger = recordingLogger();
    const config = dockerConfig({ resourceSpec: { cpu: 2 } });
    expect(mergeResourceSpec(config, live(null), logger).resourceSpec).toEqual({ cpu: 2 });
    const without = dockerConfig();
    expect(mergeResourceSpec(without, live({ cpu: 1 }), logger)).toBe(without);
    expect(logger.entries).toEqual([]);
  });

  it('a live key with a hostile name is made inert in the log', () => {
    const logger = recordingLogger();
    mergeResourceSpec(
      dockerConfig({ resourceSpec: { cpu: 2 } }),
      live({ '\n::error::x': 1 }),
      logger,
    );
    expect(logger.text()).not.toMatch(/\n::error::/);
  });
});
