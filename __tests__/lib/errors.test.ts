import { describe, expect, it } from '@jest/globals';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../../src/lib/errors.js';

describe('the action errors', () => {
  it('carry their message and the title their annotation gets', () => {
    expect(new ActionError('m')).toMatchObject({ message: 'm', title: 'Deployment failed' });
    expect(new ApiError('m', { status: 500 })).toMatchObject({
      title: 'Control-plane request failed',
      status: 500,
    });
    expect(new DeadlineError('m')).toMatchObject({ message: 'm', title: 'Timed out' });
    expect(new CancelledError('m')).toMatchObject({ message: 'm', title: 'Cancelled' });
    expect(new CancelledError('m')).toBeInstanceOf(ActionError);
  });
});
