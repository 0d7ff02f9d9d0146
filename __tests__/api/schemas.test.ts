/**
 * The answer shapes: loose (extra fields kept), strict about the fields the action reads. The
 * client's tests read them through real answers; here the two list shapes, built by one helper.
 */
import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { DeploymentsListSchema, RevisionsListSchema } from '../../src/api/schemas.js';

const revision = {
  id: 'r-1',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  status: 'DEPLOYED',
  source: 'github',
  source_revision_config: {},
};

describe('list schemas', () => {
  it('read a page of items and its offset, keeping fields they do not name', () => {
    // Request-only fields are not checked in answers, whatever their shape there.
    const sourceRevisionConfig = { source_tarball_path: { bucket: 'b' } };
    const page = {
      resources: [{ ...revision, source_revision_config: sourceRevisionConfig, extra: 1 }],
      offset: 1,
      total: 9,
    };
    expect(z.parse(RevisionsListSchema, page)).toEqual(page);
  });

  it('refuse a page whose items or offset do not match', () => {
    expect(
      z.safeParse(RevisionsListSchema, { resources: [{ id: 'r-1' }], offset: 1 }).success,
    ).toBe(false);
    expect(z.safeParse(DeploymentsListSchema, { resources: [] }).success).toBe(false);
    expect(z.safeParse(DeploymentsListSchema, { resources: [], offset: 0 }).success).toBe(true);
  });
});
