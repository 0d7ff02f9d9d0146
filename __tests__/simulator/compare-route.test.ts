/** The simulator's GitHub compare API (`skip-unchanged` across commits) over loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
  sim.github.addCommits('acme/mono', [
    { sha: 'a'.repeat(40), files: [] },
    { sha: 'b'.repeat(40), files: [{ filename: 'web/x.ts', status: 'modified' }] },
    {
      sha: 'c'.repeat(40),
      files: [
        { filename: 'web/x.ts', status: 'removed' },
        { filename: 'docs/y.md', status: 'renamed', previous_filename: 'agent/y.md' },
      ],
    },
  ]);
  sim.github.addCommits('acme/huge', [
    { sha: '1'.repeat(40), files: [] },
    {
      sha: '2'.repeat(40),
      files: Array.from({ length: 400 }, (_, i) => ({
        filename: `f${i}`,
        status: 'added' as const,
      })),
    },
  ]);
});
afterAll(async () => sim.close());

async function compare(repo: string, basehead: string) {
  const res = await fetch(`${sim.url}/github/repos/${repo}/compare/${basehead}?per_page=1&page=1`, {
    headers: { authorization: 'Bearer t' },
  });
  return {
    status: res.status,
    body: (await res.json()) as { status?: string; files?: { filename: string; status: string }[] },
  };
}

describe('GET /github/repos/{o}/{r}/compare/{base}...{head}', () => {
  it('lists the files changed after base up to head, the last change of a path winning', async () => {
    const answer = await compare('acme/mono', `${'a'.repeat(40)}...${'c'.repeat(40)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('ahead');
    expect(answer.body.files).toEqual([
      { filename: 'web/x.ts', status: 'removed' },
      { filename: 'docs/y.md', status: 'renamed', previous_filename: 'agent/y.md' },
    ]);
  });

  it('identical and behind comparisons list no files; unknown commits and repositories 404', async () => {
    expect((await compare('acme/mono', `${'b'.repeat(7)}...${'b'.repeat(40)}`)).body).toMatchObject(
      { status: 'identical', files: [] },
    );
    expect(
      (await compare('acme/mono', `${'c'.repeat(40)}...${'a'.repeat(40)}`)).body,
    ).toMatchObject({ status: 'behind', files: [] });
    expect((await compare('acme/mono', `${'a'.repeat(40)}...${'f'.repeat(40)}`)).status).toBe(404);
    expect((await compare('acme/other', `${'a'.repeat(40)}...${'c'.repeat(40)}`)).status).toBe(404);
  });

  it('caps the file list at 300, as GitHub does', async () => {
    const answer = await compare('acme/huge', `${'1'.repeat(40)}...${'2'.repeat(40)}`);
    expect(answer.body.files).toHaveLength(300);
  });
});
