import { deploymentFixture, recordingLogger } from '../helpers/fakes.js';
import { describe, expect, it } from '@jest/globals';
import type { ControlPlane } from '../../src/api/client.js';
import type { Deployment, Revision } from '../../src/api/schemas.js';
import { ApiError, CancelledError } from '../../src/lib/errors.js';
import { interruptPrevious } from '../../src/deployment/interrupt-previous.js';

const DEP: Deployment = deploymentFixture();

function revision(status: string, id = 'rev-2'): Revision {
  return {
    id,
    status,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    source: 'github',
    source_revision_config: {},
  };
}

function recorder() {
  const logger = recordingLogger();
  return { logger, lines: logger.lines };
}

function client(
  status: string | Error,
  answer: 'interrupted' | 404 | 405 | 409 | Error = 'interrupted',
) {
  const calls: string[] = [];
  const cp = {
    getRevision: async (id: string, rev: string) => {
      calls.push(`GET ${id}/${rev}`);
      if (status instanceof Error) throw status;
      return revision(status, rev);
    },
    interruptRevision: async (id: string, rev: string) => {
      calls.push(`POST ${id}/${rev}/interruption`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ControlPlane;
  return { cp, calls };
}

describe('interruptPrevious', () => {
  for (const status of [
    'QUEUED',
    'AWAITING_BUILD',
    'BUILDING',
    'AWAITING_DEPLOY',
    'DEPLOYING',
    'UNKNOWN',
  ]) {
    it(`interrupts the latest revision while it is ${status}, and says so`, async () => {
      const { cp, calls } = client(status);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2', 'POST dep-1/rev-2/interruption']);
      expect(lines).toEqual([
        {
          level: 'info',
          message: expect.stringMatching(/Interrupted revision rev-2 .*interrupt-previous/),
        },
      ]);
    });
  }

  for (const status of [
    'DEPLOYED',
    'BUILD_FAILED',
    'DEPLOY_FAILED',
    'CREATE_FAILED',
    'SKIPPED',
    'INTERRUPTED',
  ]) {
    it(`leaves a ${status} revision alone`, async () => {
      const { cp, calls } = client(status);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2']);
      expect(lines).toEqual([]);
    });
  }

  for (const code of [404, 405, 409] as const) {
    it(`an HTTP ${code} answer is a notice, not a failure`, async () => {
      const { cp, calls } = client('BUILDING', code);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2', 'POST dep-1/rev-2/interruption']);
      expect(lines.map((l) => l.level)).toEqual(['notice']);
      expect(lines[0]!.message).toContain(`HTTP ${code}`);
      expect(lines[0]!.message).toMatch(/update goes ahead/);
    });
  }

  it('another failure of the call is a warning; the update still goes ahead', async () => {
    const { cp } = client(
      'BUILDING',
      new ApiError('HTTP 500 from the control plane', { status: 500, method: 'POST', path: '/x' }),
    );
    const { logger, lines } = recorder();
    await interruptPrevious(cp, DEP, logger);
    expect(lines.map((l) => l.level)).toEqual(['warning']);
    expect(lines[0]!.message).toMatch(/interrupt-previous: false/);
  });

  it('an unreadable latest revision is not interrupted blindly', async () => {
    const { cp, calls } = client(
      new ApiError('HTTP 503', { status: 503, method: 'GET', path: '/x' }),
    );
    const { logger, lines } = recorder();
    await interruptPrevious(cp, DEP, logger);
    expect(calls).toEqual(['GET dep-1/rev-2']);
    expect(lines.map((l) => l.level)).toEqual(['debug']);
  });

  it('cancellation still ends the run', async () => {
    const { cp } = client('BUILDING', new CancelledError('cancelled'));
    const { logger } = recorder();
    await expect(interruptPrevious(cp, DEP, logger)).rejects.toBeInstanceOf(CancelledError);
  });

  it('uses a latest revision the run has just read instead of asking again', async () => {
    const { cp, calls } = client('DEPLOYED');
    const { logger } = recorder();
    await interruptPrevious(cp, DEP, logger, revision('BUILDING'));
    expect(calls).toEqual(['POST dep-1/rev-2/interruption']);
  });

  it('does nothing without a latest revision', async () => {
    const { cp, calls } = client('BUILDING');
    const { logger, lines } = recorder();
    await interruptPrevious(cp, { ...DEP, latest_revision_id: null }, logger);
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('neutralises workflow commands in names from the control plane', async () => {
    const { cp } = client('BUILDING', 409);
    const { logger, lines } = recorder();
    await interruptPrevious(cp, { ...DEP, name: '::error::owned' }, logger);
    expect(lines[0]!.message).not.toContain('::error::');
  });
});
