/**
 * Unit tests of the `upload` archive: which files go in (built-in exclusions, every `.env`,
 * nested `.gitignore` / `.dockerignore`, links), where it is rooted, byte-for-byte
 * determinism whatever the mtimes, and the size limit.
 */
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  ARCHIVE_MTIME,
  buildArchive,
  prepareSourceArchive,
} from '../../../src/deployment/upload/archive.js';
import { planArchive, selectSourceFiles } from '../../../src/deployment/upload/source-files.js';
import type { DeployConfig } from '../../../src/inputs/config.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'archive-unit-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The archive of a checkout whose config is at its root, built inside it. */
function archiveOf(root: string, options: Partial<Parameters<typeof buildArchive>[1]> = {}) {
  return buildArchive(planArchive(root, 'langgraph.json', {}), {
    tempDir: root,
    ...options,
  });
}

async function selected(root: string): Promise<string[]> {
  const { files } = await selectSourceFiles(
    { folders: [{ absolute: root, prefix: '' }], workspace: root },
    () => {},
  );
  return files.map((f) => f.archivePath);
}

describe('selectSourceFiles', () => {
  it('leaves out the built-in folders and every .env / .env.* at any depth', async () => {
    const root = tree({
      'langgraph.json': '{}',
      'src/a.py': '',
      '.git/HEAD': '',
      'node_modules/x/i.js': '',
      'src/__pycache__/a.pyc': '',
      '.venv/bin/python': '',
      'venv/lib/x': '',
      '.tox/x': '',
      '.mypy_cache/x': '',
      '.env': 'S=1',
      'src/.env.local': 'S=2',
      'deep/er/.env.production': 'S=3',
      '.envrc': 'kept: not .env nor .env.*',
      'env.py': '',
    });
    expect(await selected(root)).toEqual(['.envrc', 'env.py', 'langgraph.json', 'src/a.py']);
  });

  it('honours .gitignore and .dockerignore of every folder, the deepest rule deciding', async () => {
    const root = tree({
      '.gitignore': '*.log\ndata/\n',
      '.dockerignore': 'secret.txt\n',
      'a.log': '',
      'secret.txt': '',
      'data/big.bin': '',
      'keep.py': '',
      'sub/.gitignore': '!important.log\nlocal.txt\n',
      'sub/important.log': '',
      'sub/other.log': '',
      'sub/local.txt': '',
      'local.txt': '',
    });
    expect(await selected(root)).toEqual([
      '.dockerignore',
      '.gitignore',
      'keep.py',
      'local.txt',
      'sub/.gitignore',
      'sub/important.log',
    ]);
  });

  it('leaves out symbolic links and every path of a hard-linked file, and lists them', async () => {
    const root = tree({ 'a.py': 'x', 'z/target.py': 'y' });
    symlinkSync('/etc/passwd', join(root, 'passwd'));
    symlinkSync(join(root, 'z'), join(root, 'dirlink'));
    linkSync(join(root, 'a.py'), join(root, 'b.py'));
    const { files, leftOut } = await selectSourceFiles(
      { folders: [{ absolute: root, prefix: '' }], workspace: root },
      () => {},
    );
    expect(files.map((f) => f.archivePath)).toEqual(['z/target.py']);
    expect(leftOut).toEqual([
      { archivePath: 'a.py', reason: 'hard link' },
      { archivePath: 'b.py', reason: 'hard link' },
      { archivePath: 'dirlink', reason: 'symbolic link' },
      { archivePath: 'passwd', reason: 'symbolic link' },
    ]);
  });
});

describe('planArchive', () => {
  it('roots at the config folder when every dependency is inside it', () => {
    const ws = tree({ 'apps/agent/langgraph.json': '', 'apps/agent/pkg/x.py': '' });
    const plan = planArchive(ws, 'apps/agent/langgraph.json', {
      dependencies: ['.', './pkg', 'langchain'],
    });
    expect(plan.root).toBe(join(ws, 'apps/agent'));
    expect(plan.folders).toEqual([{ absolute: join(ws, 'apps/agent'), prefix: '' }]);
    expect(plan.configPathInArchive).toBe('langgraph.json');
  });

  it('roots at the common parent of local dependencies outside it, with the config path adjusted', () => {
    const ws = tree({ 'apps/agent/langgraph.json': '', 'libs/shared/x.py': '' });
    const plan = planArchive(ws, 'apps/agent/langgraph.json', {
      dependencies: ['.', '../../libs/shared'],
    });
    expect(plan.root).toBe(ws);
    expect(plan.folders.map((f) => f.prefix)).toEqual(['apps/agent', 'libs/shared']);
    expect(plan.configPathInArchive).toBe('apps/agent/langgraph.json');
  });

  it('refuses a local dependency outside the repository', () => {
    const ws = tree({ 'langgraph.json': '' });
    expect(() => planArchive(ws, 'langgraph.json', { dependencies: ['../elsewhere'] })).toThrow(
      /outside the repository/,
    );
  });
});

describe('buildArchive', () => {
  const files = { 'langgraph.json': '{"graphs":{}}', 'src/agent.py': 'print(1)\n', 'b.txt': 'b' };

  it('is byte-identical for the same files whatever their mtimes, with fixed times, no owners and sorted entries', async () => {
    const one = tree(files);
    const two = tree(files);
    utimesSync(join(two, 'src/agent.py'), new Date('2001-02-03'), new Date('2001-02-03'));
    utimesSync(join(two, 'b.txt'), new Date(), new Date());
    const a = await archiveOf(one);
    const b = await archiveOf(two);
    const bytesA = readFileSync(a.file);
    expect(bytesA.equals(readFileSync(b.file))).toBe(true);
    expect(a.sha256).toBe(b.sha256);
    expect(a.bytes).toBe(bytesA.length);

    const tar = gunzipSync(bytesA);
    const names: string[] = [];
    for (let off = 0; off + 512 <= tar.length;) {
      const h = tar.subarray(off, off + 512);
      if (h.every((x) => x === 0)) break;
      names.push(h.subarray(0, 100).toString().replace(/\0.*$/s, ''));
      const mtime = parseInt(h.subarray(136, 148).toString().trim(), 8);
      expect(mtime).toBe(ARCHIVE_MTIME.getTime() / 1000);
      expect(h.subarray(265, 297).toString().replace(/\0/g, '')).toBe(''); // uname
      const size = parseInt(h.subarray(124, 136).toString().trim(), 8);
      off += 512 + Math.ceil(size / 512) * 512;
    }
    expect(names).toEqual(['b.txt', 'langgraph.json', 'src/agent.py']);
    a.cleanup();
    b.cleanup();
  });

  it('changes the digest when a file changes', async () => {
    const one = tree(files);
    const two = tree({ ...files, 'b.txt': 'c' });
    const a = await archiveOf(one);
    const b = await archiveOf(two);
    expect(a.sha256).not.toBe(b.sha256);
  });

  it('stops over the limit, naming the largest files, and leaves no temporary file', async () => {
    const big = randomBytes(300_000); // incompressible
    const root = tree({ 'langgraph.json': '{}', 'small.txt': 's' });
    writeFileSync(join(root, 'weights.bin'), big);
    const tmp = mkdtempSync(join(tmpdir(), 'archive-tmp-'));
    made.push(tmp);
    await expect(archiveOf(root, { tempDir: tmp, maxBytes: 100_000 })).rejects.toThrow(
      /over 0\.1 MiB.*Largest files: weights\.bin \(0\.3 MiB\)\. /s,
    );
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses a config that an ignore rule would leave out', async () => {
    const root = tree({ 'langgraph.json': '{}', '.dockerignore': '*.json\n' });
    await expect(archiveOf(root)).rejects.toThrow(/would not be in the `source: upload` archive/);
  });
});

describe('prepareSourceArchive', () => {
  it('warns over the warning size naming the largest files, and lists links left out', async () => {
    const root = tree({ 'langgraph.json': '{"graphs":{"a":"./a.py:g"}}', 'a.py': 'g = 1' });
    writeFileSync(join(root, 'weights.bin'), randomBytes(200_000));
    symlinkSync('/etc/hosts', join(root, 'hosts'));
    const warnings: string[] = [];
    const logger = {
      info() {},
      debug() {},
      notice() {},
      error() {},
      warning(message: string) {
        warnings.push(message);
      },
    };
    const config = {
      configPath: 'langgraph.json',
      github: { workspace: root },
    } as unknown as DeployConfig;
    const archive = await prepareSourceArchive(
      { config, logger, warnBytes: 100_000, tempDir: root },
      {
        file: 'langgraph.json',
        json: { graphs: { a: './a.py:g' } },
        envReferences: [],
        configEnvNames: [],
      },
    );
    expect(warnings.join('\n')).toMatch(/hosts \(symbolic link\)/);
    // One unit (MiB, the unit of the platform's limit), and no file that shows as 0.0.
    expect(warnings.join('\n')).toMatch(
      /holds 0\.2 MiB of files, 0\.2 MiB compressed \(the limit is 200 MiB compressed\)\. Largest files: weights\.bin \(0\.2 MiB\)\. /,
    );
    expect(warnings.join('\n')).not.toMatch(/\bMB\b|[( ]0\.0 MiB/);
    archive.cleanup();
  });
});
