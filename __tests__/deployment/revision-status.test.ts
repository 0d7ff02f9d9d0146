/**
 * The one table of revision statuses (src/deployment/revision-status.ts), and that the modules
 * which used to decide on their own now follow it.
 */
import { describe, expect, it } from '@jest/globals';
import { STREAMED_STATUSES } from '../../src/deployment/build-log-stream.js';
import { logTypeFor } from '../../src/deployment/logs.js';
import {
  REVISION_STATUS,
  REVISION_STATUSES,
  UNKNOWN_STATUS,
  endsWait,
  isKnownStatus,
  revisionStatus,
  statusesWhere,
} from '../../src/deployment/revision-status.js';
import { isInProgress } from '../../src/deployment/skip-unchanged.js';

describe('the revision-status table', () => {
  it('lists the statuses of the OpenAPI description, in the order of a revision’s life', () => {
    expect(REVISION_STATUSES).toEqual([
      'CREATING',
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'CREATE_FAILED',
      'BUILD_FAILED',
      'DEPLOY_FAILED',
      'INTERRUPTED',
      'DEPLOYED',
      'SKIPPED',
      'UNKNOWN',
    ]);
  });

  it('says which statuses are final, and how each ends', () => {
    expect(statusesWhere((r) => r.final)).toEqual([
      'CREATE_FAILED',
      'BUILD_FAILED',
      'DEPLOY_FAILED',
      'DEPLOYED',
      'SKIPPED',
    ]);
    expect(statusesWhere((r) => r.outcome === 'failed')).toEqual([
      'CREATE_FAILED',
      'BUILD_FAILED',
      'DEPLOY_FAILED',
      'INTERRUPTED',
    ]);
    expect(REVISION_STATUS.DEPLOYED.outcome).toBe('deployed');
    expect(REVISION_STATUS.SKIPPED.outcome).toBe('superseded');
    // Final exactly when not in progress, except INTERRUPTED: both official tools keep
    // following it, and the wait gives up on it only after a while.
    for (const status of REVISION_STATUSES) {
      const rule = revisionStatus(status);
      const expected = status !== 'INTERRUPTED' && rule.outcome !== 'in_progress';
      expect([status, rule.final]).toEqual([status, expected]);
    }
    expect(REVISION_STATUS.INTERRUPTED.finalAfterMs).toBe(5 * 60_000);
    expect(endsWait('INTERRUPTED', 5 * 60_000 - 1)).toBeUndefined();
    expect(endsWait('INTERRUPTED', 5 * 60_000)).toBe('failed');
    expect(endsWait('UNKNOWN', 3_600_000)).toBeUndefined();
    expect(endsWait('BUILD_FAILED', 0)).toBe('failed');
  });

  it('treats a status the platform adds later as still in progress, with a note in the log', () => {
    expect(isKnownStatus('REBUILDING')).toBe(false);
    expect(revisionStatus('REBUILDING')).toBe(UNKNOWN_STATUS);
    expect(UNKNOWN_STATUS).toMatchObject({ outcome: 'in_progress', final: false });
    expect(UNKNOWN_STATUS.note).toContain('not a status this action knows');
    expect(isKnownStatus('toString')).toBe(false);
    expect(revisionStatus('constructor')).toBe(UNKNOWN_STATUS);
  });

  it('drives the log type, the build-log stream and the in-progress test', () => {
    expect(REVISION_STATUSES.filter((s) => logTypeFor(s) === 'build')).toEqual([
      'CREATE_FAILED',
      'BUILD_FAILED',
    ]);
    expect(REVISION_STATUSES.filter((s) => logTypeFor(s) === 'deploy')).toEqual(['DEPLOY_FAILED']);
    expect([...STREAMED_STATUSES]).toEqual(statusesWhere((r) => r.phase === 'building'));
    for (const status of [...REVISION_STATUSES, 'REBUILDING']) {
      expect([status, isInProgress(status)]).toEqual([
        status,
        revisionStatus(status).outcome === 'in_progress',
      ]);
    }
  });

  it('times only DEPLOYING closely', () => {
    expect(statusesWhere((r) => r.phase === 'deploying')).toEqual(['DEPLOYING']);
  });
});
