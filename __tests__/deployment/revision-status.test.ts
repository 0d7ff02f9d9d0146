/**
 * The one table of revision statuses (src/deployment/revision-status.ts), and that the modules
 * which used to decide on their own now follow it.
 */
import { describe, expect, it } from '@jest/globals';
import {
  REVISION_STATUS,
  UNKNOWN_STATUS,
  endsWait,
  revisionStatus,
  type RevisionStatusRule,
} from '../../src/deployment/revision-status.js';

const REVISION_STATUSES = Object.keys(REVISION_STATUS);
/** The statuses whose rows match `test`, in table order. */
const statusesWhere = (test: (rule: RevisionStatusRule) => boolean) =>
  REVISION_STATUSES.filter((status) => test(revisionStatus(status)));

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
    expect(REVISION_STATUS.SKIPPED.outcome).toBe('skipped');
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
    expect(revisionStatus('REBUILDING')).toBe(UNKNOWN_STATUS);
    expect(UNKNOWN_STATUS).toMatchObject({ outcome: 'in_progress', final: false });
    expect(UNKNOWN_STATUS.note).toContain('not a status this action knows');
    expect(revisionStatus('toString')).toBe(UNKNOWN_STATUS);
    expect(revisionStatus('constructor')).toBe(UNKNOWN_STATUS);
  });

  it('drives the log type, the build-log stream and the in-progress test', () => {
    expect(statusesWhere((r) => r.log === 'build')).toEqual(['CREATE_FAILED', 'BUILD_FAILED']);
    expect(statusesWhere((r) => r.log === 'deploy')).toEqual(['DEPLOY_FAILED']);
    expect(statusesWhere((r) => r.phase === 'building')).toEqual(['AWAITING_BUILD', 'BUILDING']);
  });

  it('times only DEPLOYING closely', () => {
    expect(statusesWhere((r) => r.phase === 'deploying')).toEqual(['DEPLOYING']);
  });
});

describe('work still in progress (interrupt-previous, skip-unchanged)', () => {
  const isInProgress = (status: string) => revisionStatus(status).outcome === 'in_progress';
  it('is true for the waiting and working statuses and ones it does not know', () => {
    for (const s of [
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'UNKNOWN',
      'NEW',
    ]) {
      expect([s, isInProgress(s)]).toEqual([s, true]);
    }
    for (const s of [
      'DEPLOYED',
      'BUILD_FAILED',
      'DEPLOY_FAILED',
      'CREATE_FAILED',
      'SKIPPED',
      'INTERRUPTED',
    ]) {
      expect([s, isInProgress(s)]).toEqual([s, false]);
    }
  });
});
