/**
 * The README is the way from nothing to a first deploy, and docs/ holds the full reference:
 * these checks fail when a part the issues asked for goes missing or drifts from the code
 * (error titles, the owner placeholder, links between the pages).
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parse } from 'yaml';

const readme = readFileSync('README.md', 'utf8');
const docs = (name: string) => readFileSync(join('docs', name), 'utf8');

/** README.md and every Markdown file of docs/. */
function pages(dir = 'docs'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pages(path);
    return path.endsWith('.md') ? [path] : [];
  });
}

/** The anchors GitHub gives a page's headings (outside code blocks). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}

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
  it('opens with the shortest deploy-on-push workflow, then a table of contents', () => {
    const workflows = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```/gm)]
      .map((m) => ({ text: m[1]!, index: m.index, doc: parse(m[1]!) as Record<string, unknown> }))
      .filter((w) => typeof w.doc === 'object' && w.doc !== null && 'jobs' in w.doc);
    const first = workflows[0]!;
    expect(Object.keys(first.doc['on'] as object)).toEqual(['push']);
    expect(first.index).toBeLessThan(readme.indexOf('\n## Contents\n'));
    const lines = (w: { text: string }) => w.text.split('\n').length;
    expect(Math.min(...workflows.map(lines))).toBe(lines(first));
    // The contents link every section after them.
    const contents = section('Contents');
    const after = readme.slice(readme.indexOf('\n## Contents\n') + 1);
    const sections = [...after.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    const linked = [...anchors(readme)].filter((a) => contents.includes(`](#${a})`));
    for (const title of sections.filter((t) => !['Contents', 'License'].includes(t))) {
      const slug = [...anchors(`## ${title}`)][0]!;
      expect([title, linked.includes(slug)]).toEqual([title, true]);
    }
  });

  it('has the sections a new user needs, in order', () => {
    const order = [
      'Deploy on every push',
      'Contents',
      'Try it in one minute',
      'Requirements',
      'Set-up',
      'Recipes',
      'Troubleshooting',
      'Reference',
      'Versioning and releases',
      'Development',
    ].map((t) => readme.indexOf(`\n## ${t}\n`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(docs('reference.md')).toMatch(/```mermaid\nflowchart/);
  });

  it('is at most 600 lines; the full reference lives in docs/ and the README links it', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(600);
    for (const page of [
      'reference.md',
      'platform-facts.md',
      'architecture.md',
      'troubleshooting.md',
    ]) {
      expect(readme).toContain(`](docs/${page}`);
    }
    expect(docs('reference.md')).toContain('<!-- inputs:start -->');
  });

  it('says how long `npm test` takes', () => {
    expect(section('Development')).toMatch(/npm test +# .*: about \d+ minutes/);
  });

  it('links only to pages and headings that exist', () => {
    const broken: string[] = [];
    for (const page of ['README.md', ...pages()]) {
      const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const file = path ? normalize(join(dirname(page), path)) : page;
        if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
        else if (
          anchor &&
          file.endsWith('.md') &&
          !anchors(readFileSync(file, 'utf8')).has(anchor)
        ) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('never uses langchain-ai as the owner of this action', () => {
    const all = ['README.md', ...pages()].map((p) => readFileSync(p, 'utf8')).join('\n');
    expect(all).not.toContain('langchain-ai/langgraph-deploy-action');
    const uses = [...all.matchAll(/uses: (\S+langgraph-deploy-action\S*)/g)].map((m) => m[1]);
    expect(uses.length).toBeGreaterThan(3);
    for (const u of uses) expect(u).toMatch(/^your-org\/langgraph-deploy-action@v1$/);
    expect(readme).toContain('Not an official LangChain action');
  });

  it('guards both preview jobs against forks and Dependabot', () => {
    const recipes = section('Recipes');
    const preview = recipes.indexOf('### Preview deployment per pull request');
    const jobs = recipes.slice(
      recipes.indexOf('jobs:', preview),
      recipes.indexOf('\n### ', preview + 1),
    );
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
    const troubleshooting = docs('troubleshooting.md');
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
