/**
 * The shape of src/: its rooms on floors (every import between rooms, type-only ones included,
 * points down, or sideways where `FLOORS` allows it), no import cycles between files (static
 * imports and dynamic `import()` alike; type-only imports are erased and do not count), no file
 * over 400 lines, and every source file with logic tested at its mirrored path or listed with
 * the test that covers it. The graph is read from the sources themselves, so an arrow that
 * climbs, a new cycle, a grown file or an untested file fails here, naming it.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const MAX_LINES = 400;
const rel = (file: string) => relative(ROOT, file);

/**
 * The floor plan, bottom up (README "Architecture" shows it): a room is a folder of src/ (a
 * top-level file is a room of its own). A room imports only rooms on lower floors, and on its
 * own floor only the rooms its `uses` names. A room missing here fails the test: place it first.
 */
const FLOORS: Readonly<Record<string, { floor: number; uses?: readonly string[] }>> = {
  lib: { floor: 0 }, // untrusted text, paths, outputs, time, errors
  api: { floor: 1 }, // clients of remote services: one transport, one retry call, the key rule
  github: { floor: 1, uses: ['api'] }, // GitHub's answers capped like the control plane's
  inputs: { floor: 2 }, // what the user asked for
  preflight: { floor: 2, uses: ['inputs'] }, // checked before any request
  deployment: { floor: 3 }, // steps: upsert, wait, skip, upload
  verify: { floor: 3 }, // steps: health, smoke, conversation tests, evaluation
  report: { floor: 4 }, // the run's record, all its Markdown
  commands: { floor: 5 }, // deploy, delete, rollback, prune
  'index.ts': { floor: 6, uses: ['main.ts'] }, // the run
  'main.ts': { floor: 6, uses: ['flow.ts'] },
  'flow.ts': { floor: 6 },
};

/**
 * Files still over the limit, each waiting for its split (issue #12). The list may only
 * shrink: a file listed here that is already short enough fails the test too.
 */
const PENDING_SPLIT: ReadonlySet<string> = new Set<string>([]);

/**
 * Source files with logic but no test at their mirrored path, each with the test that covers
 * it: a unit test that reaches it through its imports (checked below), or an end-to-end test,
 * which runs the bundle and so the whole tree. A file that gets its mirrored test leaves the
 * list (checked too).
 */
const COVERED_ELSEWHERE: Readonly<Record<string, string>> = {
  'src/index.ts': '__tests__/e2e/deploy.test.ts',
  'src/main.ts': '__tests__/e2e/deploy.test.ts',
  'src/flow.ts': '__tests__/e2e/cancel.test.ts',
  'src/preflight/document.ts': '__tests__/preflight/index.test.ts',
  'src/preflight/graphs.ts': '__tests__/preflight/index.test.ts',
  'src/deployment/upload/source-files.ts': '__tests__/deployment/upload/archive.test.ts',
  'src/api/answers.ts': '__tests__/api/client.test.ts',
  'src/verify/agent-server.ts': '__tests__/verify/index.test.ts',
  'src/lib/paths.ts': '__tests__/inputs/secrets.test.ts',
  'src/lib/time.ts': '__tests__/api/http/request.test.ts',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Comments removed, so that an import written in a comment does not count. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** The runtime imports of a module: relative specifiers only (packages cannot cycle back). */
export function runtimeImports(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  // import x from '…', import { a } from '…', export { a } from '…', import '…'
  const staticRe = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(staticRe)) {
    if (m[2]) continue; // `import type` / `export type`: erased
    const clause = m[3] ?? '';
    // import { type A, type B } from '…' is erased too (verbatimModuleSyntax keeps the rest)
    const names = /\{([^}]*)\}/.exec(clause)?.[1];
    if (names !== undefined && !/^[^{]*\S[^{]*\{/.test(clause)) {
      const list = names
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (list.length > 0 && list.every((n) => n.startsWith('type '))) continue;
    }
    found.push(m[4]!);
  }
  // import('…') at runtime; `import('…').Name` is a type position and is erased
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)(\.)?/g)) {
    if (m[2]) continue;
    found.push(m[1]!);
  }
  return found.filter((s) => s.startsWith('.'));
}

/** Every relative import of a module, type-only ones and `import('…').T` included. */
export function allImports(text: string): string[] {
  const code = withoutComments(text);
  const re = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm;
  return [...code.matchAll(re)].map((m) => m[1]!);
}

/** The room of a file under src/: its first folder, or the file itself at the top. */
const roomOf = (file: string) => relative(SRC, file).split('/')[0]!;

/**
 * Each import between rooms (`[from file, to file]`) that breaks the plan, with why: to a
 * higher floor, sideways to a room not in `uses`, or from or to a room not in the plan.
 */
export function floorViolations(
  imports: readonly (readonly [string, string])[],
  floors: typeof FLOORS = FLOORS,
): string[] {
  return imports.flatMap(([from, to]) => {
    const [a, b] = [roomOf(from), roomOf(to)];
    if (a === b) return [];
    const [fa, fb] = [floors[a], floors[b]];
    const arrow = `${rel(from)} -> ${rel(to)}`;
    if (!fa || !fb) return [`${arrow}: room ${!fa ? a : b} is not in FLOORS`];
    if (fb.floor > fa.floor) return [`${arrow}: up from floor ${fa.floor} to ${fb.floor}`];
    if (fb.floor === fa.floor && !fa.uses?.includes(b)) {
      return [`${arrow}: sideways on floor ${fa.floor}, not in ${a}'s uses`];
    }
    return [];
  });
}

/** Whether a file has code that runs (not only types and interfaces, comments aside). */
function hasLogic(text: string): boolean {
  return /\bfunction\b|=>|\bclass\s|\bnew\s/.test(withoutComments(text));
}

/** Every file a test reaches through relative imports (type imports too: they name it). */
function reachedFrom(testFile: string): Set<string> {
  const seen = new Set<string>();
  const todo = [testFile];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = withoutComments(readFileSync(file, 'utf8'));
    for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
      todo.push(resolve(dirname(file), `${m[1]}.ts`));
    }
  }
  return seen;
}

function graph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImports(readFileSync(file, 'utf8'))
      .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      .filter((target) => known.has(target));
    edges.set(file, [...new Set(targets)]);
  }
  return edges;
}

/** Every cycle's files (strongly connected components of more than one file, or a self-import). */
export function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of edges.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe('src/ architecture', () => {
  it('has every import between rooms (type-only too) pointing down the floors, or allowed sideways', () => {
    const imports = sourceFiles(SRC).flatMap((file) =>
      allImports(readFileSync(file, 'utf8')).map(
        (spec) => [file, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))] as const,
      ),
    );
    expect(imports.length).toBeGreaterThan(100);
    expect(floorViolations(imports)).toEqual([]);
  });

  it('places every room of src/ on a floor', () => {
    const rooms = new Set(sourceFiles(SRC).map(roomOf));
    expect([...rooms].filter((room) => !(room in FLOORS))).toEqual([]);
  });

  it('has no import cycle, static or dynamic', () => {
    const found = cycles(graph()).map((c) => c.map(rel).sort());
    expect(found).toEqual([]);
  });

  it('has no file over 400 lines (except those listed as waiting for their split)', () => {
    const lengths = sourceFiles(SRC).map((file) => ({
      file: rel(file),
      lines: readFileSync(file, 'utf8').split('\n').length - 1,
    }));
    const over = lengths.filter((f) => f.lines > MAX_LINES).map((f) => f.file);
    expect(over.filter((f) => !PENDING_SPLIT.has(f))).toEqual([]);
    // The list only shrinks: a file split already must leave it.
    expect([...PENDING_SPLIT].filter((f) => !over.includes(f))).toEqual([]);
  });
});

describe('tests mirror src/', () => {
  const withLogic = sourceFiles(SRC).filter((file) => hasLogic(readFileSync(file, 'utf8')));
  const mirrored = (file: string) =>
    join(ROOT, '__tests__', relative(SRC, file).replace(/\.ts$/, '.test.ts'));

  it('gives every source file with logic its test at the mirrored path, or lists it', () => {
    const missing = withLogic
      .filter((file) => !existsSync(mirrored(file)))
      .map(rel)
      .filter((file) => !(file in COVERED_ELSEWHERE));
    expect(missing).toEqual([]);
  });

  it('lists only files without a mirrored test, each with a test that reaches it', () => {
    const wrong = Object.entries(COVERED_ELSEWHERE).flatMap(([file, test]) => {
      const source = join(ROOT, file);
      const testFile = join(ROOT, test);
      if (!existsSync(source)) return [`${file}: no such source file`];
      if (existsSync(mirrored(source))) return [`${file}: has its mirrored test now`];
      if (!existsSync(testFile)) return [`${file}: no such test ${test}`];
      // An end-to-end test runs the bundle, which holds every module.
      if (test.startsWith('__tests__/e2e/')) return [];
      return reachedFrom(testFile).has(source) ? [] : [`${file}: ${test} does not import it`];
    });
    expect(wrong).toEqual([]);
  });
});

/**
 * Issue #33, item 2: a step below the commands takes what it needs and returns what it found;
 * the run's record (`RunReport`) is written only where the commands assemble it (floor 5,
 * `src/commands/`) and by the run itself (`src/flow.ts`: cancellation, warnings). A write is an
 * assignment to a field of something named `report`, a push onto one of its lists, or an
 * `Object.assign` onto it; `RunContext` (which carries the record in its `state`) is named in
 * code only there.
 */
const RECORD_WRITERS = /^src\/(commands\/|flow\.ts$)/;

/** The lines of `text` (comments removed) that write a field of a record named `report`. */
export function recordWrites(text: string): string[] {
  const write =
    /\breport(\.\w+)+\s*(=(?![=>])|\?\?=|\|\|=)|\breport(\.\w+)+\.push\(|Object\.assign\(\s*[\w.]*\breport\b/;
  return withoutComments(text)
    .split('\n')
    .filter((line) => write.test(line) || /\bRunContext\b/.test(line))
    .map((line) => line.trim());
}

describe('the run record', () => {
  it('is written only by the commands and the run, never by a step below them', () => {
    const found = sourceFiles(SRC)
      .filter((file) => !RECORD_WRITERS.test(rel(file)))
      .flatMap((file) => recordWrites(readFileSync(file, 'utf8')).map((l) => `${rel(file)}: ${l}`));
    expect(found).toEqual([]);
    // The commands do write it (the check reads what they write).
    const commands = sourceFiles(join(SRC, 'commands')).map((f) => readFileSync(f, 'utf8'));
    expect(commands.flatMap(recordWrites).length).toBeGreaterThan(10);
  });
});

describe('the checks themselves', () => {
  it('read every import for the floors, type-only ones and type positions included', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { g } from './g.js';",
      "export type { K } from './k.js';",
      "const h = await import('./h.js');",
      "type I = import('./i.js').I;",
      "import './side.js';",
      "// import { j } from './j.js';",
      "import * as z from 'zod';",
    ].join('\n');
    expect(allImports(text)).toEqual([
      './a.js',
      '../b.js',
      './g.js',
      './k.js',
      './h.js',
      './i.js',
      './side.js',
    ]);
  });

  it('fail an arrow up, one sideways not allowed and a room off the plan; pass the rest', () => {
    const at = (path: string) => join(SRC, path);
    const floors = {
      lib: { floor: 0 },
      api: { floor: 1 },
      github: { floor: 1, uses: ['api'] },
      report: { floor: 4 },
    };
    const found = floorViolations(
      [
        [at('report/a.ts'), at('lib/b.ts')], // down
        [at('github/a.ts'), at('api/b.ts')], // sideways, allowed
        [at('api/a.ts'), at('api/http/b.ts')], // within a room
        [at('api/a.ts'), at('report/b.ts')], // up
        [at('api/a.ts'), at('github/b.ts')], // sideways, not allowed
        [at('attic/a.ts'), at('lib/b.ts')], // off the plan
      ],
      floors,
    );
    expect(found).toEqual([
      'src/api/a.ts -> src/report/b.ts: up from floor 1 to 4',
      "src/api/a.ts -> src/github/b.ts: sideways on floor 1, not in api's uses",
      'src/attic/a.ts -> src/lib/b.ts: room attic is not in FLOORS',
    ]);
  });

  it('read static, dynamic and re-exports, and skip type-only imports and comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, type D } from './c.js';",
      "import { type E, f } from './e.js';",
      "export { g } from './g.js';",
      "const h = await import('./h.js');",
      "type I = import('./i.js').I;",
      "// import { j } from './j.js';",
      "import * as z from 'zod';",
    ].join('\n');
    expect(runtimeImports(text)).toEqual(['./a.js', './e.js', './g.js', './h.js']);
  });

  it('see each kind of record write, and not a read, a comparison or a comment', () => {
    const text = [
      'report.status = status;',
      'ctx.state.report.outcome = "failure";',
      'report.finishedAt ??= now;',
      '(report.warnings ??= []).push(message);',
      'report.timeline.push(change);',
      'Object.assign(ctx.state.report, { name });',
      'function f(ctx: RunContext) {}',
      'const url = report.url;',
      'if (report.outcome === "failure") return;',
      'const f = (report) => report.name;',
      '// report.status = status;',
    ].join('\n');
    expect(recordWrites(text)).toEqual([
      'report.status = status;',
      'ctx.state.report.outcome = "failure";',
      'report.finishedAt ??= now;',
      '(report.warnings ??= []).push(message);',
      'report.timeline.push(change);',
      'Object.assign(ctx.state.report, { name });',
      'function f(ctx: RunContext) {}',
    ]);
  });

  it('find a cycle through a dynamic import, and none in a chain', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
    const found = cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
        ['d', ['d']],
      ]),
    );
    expect(found.map((c) => c.sort())).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
