import { describe, expect, it } from '@jest/globals';
import { COMPARE_FILE_CAP, readComparison } from '../../../src/report/github/compare.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('readComparison', () => {
  it('reads the files of an ahead comparison, renames with their earlier path', () => {
    expect(
      readComparison(
        {
          status: 'ahead',
          files: [
            { filename: 'web/a.ts', status: 'modified', additions: 1 },
            { filename: 'web/b.ts', status: 'renamed', previous_filename: 'agent/b.ts' },
          ],
        },
        A,
        B,
      ),
    ).toEqual({
      files: [
        { filename: 'web/a.ts', status: 'modified' },
        { filename: 'web/b.ts', status: 'renamed', previous_filename: 'agent/b.ts' },
      ],
    });
    expect(readComparison({ status: 'identical', files: [] }, A, B)).toEqual({ files: [] });
  });

  it('does not trust a diverged or behind comparison, a full (cut) list, or a malformed one', () => {
    const many = Array.from({ length: COMPARE_FILE_CAP }, (_, i) => ({
      filename: `f${i}`,
      status: 'modified',
    }));
    for (const [data, reason] of [
      [{ status: 'diverged', files: [] }, /diverged.*not an ancestor/],
      [{ status: 'behind', files: [] }, /behind/],
      [{ status: 'ahead', files: many }, /300 files.*cut/],
      [{ status: 'ahead' }, /lists no files/],
      [{ status: 'ahead', files: [{ filename: 'x' }] }, /without a name or status/],
    ] as const) {
      const result = readComparison(data, A, B);
      expect('unreadable' in result ? result.unreadable : 'read').toMatch(reason);
    }
  });
});
