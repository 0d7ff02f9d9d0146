/**
 * The README is the way from nothing to a first deploy: these checks fail when a part the
 * issue asked for goes missing or drifts from the code (error titles, the owner placeholder).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const readme = readFileSync('README.md', 'utf8');

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Annotation titles the action can write: `title: '…'`, and the title argument of its errors. */
function errorTitles(): string[] {
  const titles = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:title|TITLE)(?::|\s*=)\s*['`]([^'`\n]+)['`]/g)) {
      titles.add(m[1]!);
    }
    for (const m of text.matchAll(/super\(message, ['`]([^'`]+)['`]\)/g)) titles.add(m[1]!);
    // The last argument of `new …Error(message, 'Title')`, on its own line.
    for (const m of text.matchAll(
      /new \w*Error\([\s\S]{0,1200}?\n\s*['`]([A-Z][^'`\n.]{2,60})['`],?\s*\n\s*\)/g,
    )) {
      titles.add(m[1]!);
    }
  }
  return [...titles].sort();
}

describe('README.md, top to bottom', () => {
  it('has the sections a new user needs, in order', () => {
    const order = [
      'Try it in one minute',
      'Requirements',
      'Set-up',
      'Usage',
      'What the action does, and what it guarantees',
      'Inputs',
      'Outputs',
      'Troubleshooting',
      'Versioning and releases',
      'Benchmarks',
    ].map((t) => readme.indexOf(`\n## ${t}\n`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(readme).toMatch(/```mermaid\nflowchart/);
  });

  it('never uses langchain-ai as the owner of this action', () => {
    expect(readme).not.toContain('langchain-ai/langgraph-deploy-action');
    const uses = [...readme.matchAll(/uses: (\S+langgraph-deploy-action\S*)/g)].map((m) => m[1]);
    expect(uses.length).toBeGreaterThan(3);
    for (const u of uses) expect(u).toMatch(/^your-org\/langgraph-deploy-action@v1$/);
    expect(readme).toContain('Not an official LangChain action');
  });

  it('guards both preview jobs against forks and Dependabot', () => {
    const usage = section('Usage');
    const jobs = usage.slice(usage.indexOf('jobs:'), usage.indexOf('On pull requests the action'));
    const guards = [...jobs.matchAll(/if: >-\n([\s\S]*?)\n {4}runs-on/g)].map((m) => m[1]!);
    expect(guards).toHaveLength(2);
    for (const guard of guards) {
      expect(guard).toContain('github.event.pull_request.head.repo.full_name == github.repository');
      expect(guard).toContain("github.actor != 'dependabot[bot]'");
    }
  });

  it('Set-up links to LangSmith docs for each step and names the runner version', () => {
    const setup = section('Set-up');
    for (const topic of ['create-account-api-key', 'service-keys', 'rbac', 'workspaces']) {
      expect(setup).toContain(topic);
    }
    expect(setup).toContain('list-github-integrations');
    expect(section('Requirements')).toContain('v2.327.1');
  });

  it('Troubleshooting lists every error title the action writes', () => {
    const troubleshooting = section('Troubleshooting');
    const titles = errorTitles();
    expect(titles.length).toBeGreaterThan(15);
    const missing = titles.filter((title) => {
      // `Deployment ${status}`, `Invalid input: ${input}`: the fixed part, then anything.
      const pattern = title
        .split(/\$\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^`|]+');
      return !new RegExp(`\`${pattern}`).test(troubleshooting);
    });
    expect(missing).toEqual([]);
  });

  it('keeps the benchmark tables out of the README', () => {
    expect(
      section('Benchmarks')
        .split('\n')
        .filter((l) => l.startsWith('|')),
    ).toEqual([]);
  });
});
