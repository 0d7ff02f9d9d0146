/**
 * The `upload` archive against hostile checkouts (INTERFACE v1.2, "Nothing leaves the runner
 * that is not the agent's source"): symlinked dependency roots, `.git` as a dependency, FIFOs,
 * sockets, a sparse 3 GiB file, `.git` files, credential files, nested and root ignore files
 * and `.git/info/exclude`, with the config in a subfolder; the build stops at `timeout` and
 * on cancellation. Each test lists the archive's entries.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { buildArchive } from '../../../src/deployment/upload/archive.js';
import { planArchive, selectSourceFiles } from '../../../src/deployment/upload/source-files.js';
import { CancelledError, DeadlineError } from '../../../src/lib/errors.js';
import { tarNames } from '../../helpers/tar.js';

const made: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function socketAt(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
}

async function entries(ws: string, configPath: string, json: unknown): Promise<string[]> {
  const archive = await buildArchive(planArchive(ws, configPath, json), {
    tempDir: dir('archive-out-'),
  });
  try {
    return tarNames(readFileSync(archive.file));
  } finally {
    archive.cleanup();
  }
}

describe('a hostile checkout', () => {
  it('archives only regular files that git would track, never .git, credentials or specials', async () => {
    const ws = dir('hostile-ws-');
    write(ws, {
      '.git/config': '[http] extraheader = AUTHORIZATION: basic SECRET-TOKEN\n',
      '.git/info/exclude': '*.pem\n',
      '.gitignore': 'secrets/\n/apps/agent/root-only.txt\n',
      'apps/.gitignore': 'drafts/\n',
      'apps/agent/langgraph.json': '{"dependencies": ["."], "graphs": {"a": "./agent.py:g"}}',
      'apps/agent/agent.py': 'g = 1\n',
      'apps/agent/key.pem': 'PRIVATE KEY',
      'apps/agent/secrets/token.txt': 'SECRET',
      'apps/agent/drafts/wip.py': 'wip',
      'apps/agent/root-only.txt': 'ignored by the root rule',
      'apps/agent/gha-creds-1a2b3c.json': '{"private_key": "SECRET"}',
      'apps/agent/.env.local': 'SECRET=1',
      'apps/agent/vendor/.git': 'gitdir: ../../.git/modules/vendor\n',
      'apps/agent/vendor/lib.py': 'x = 1\n',
      'apps/agent/sub/.gitignore': 'local.txt\n',
      'apps/agent/sub/.dockerignore': 'tests/\n',
      'apps/agent/sub/local.txt': 'nested ignore',
      'apps/agent/sub/tests/t.py': 'dockerignored',
      'apps/agent/sub/keep.py': 'keep',
    });
    execFileSync('mkfifo', [join(ws, 'apps/agent/pipe')]);
    await socketAt(join(ws, 'apps/agent/sock'));
    symlinkSync(join(ws, '.git'), join(ws, 'apps/agent/gitlink'));
    symlinkSync('/etc/passwd', join(ws, 'apps/agent/passwd'));
    // A second name of a file outside the agent's folder (it could as well be outside the
    // checkout, on the same file system).
    writeFileSync(join(ws, 'outside-secret'), 'SECRET');
    linkSync(join(ws, 'outside-secret'), join(ws, 'apps/agent/hardlink.txt'));

    const plan = planArchive(ws, 'apps/agent/langgraph.json', {});
    const archive = await buildArchive(plan, { tempDir: dir('archive-out-') });
    const names = tarNames(readFileSync(archive.file));
    const body = readFileSync(archive.file);
    archive.cleanup();
    expect(names).toEqual(
      [
        'langgraph.json',
        'agent.py',
        'sub/.dockerignore',
        'sub/.gitignore',
        'sub/keep.py',
        'vendor/lib.py',
      ].sort(),
    );
    expect(body.includes('SECRET')).toBe(false);
    expect(archive.leftOut.map((f) => `${f.archivePath}: ${f.reason}`)).toEqual([
      'gitlink: symbolic link',
      'hardlink.txt: hard link',
      'passwd: symbolic link',
      'pipe: not a regular file',
      'sock: not a regular file',
    ]);
  });

  it('refuses a dependency whose real path leaves the workspace, naming it, before reading', () => {
    const ws = dir('hostile-ws-');
    const outside = dir('hostile-outside-');
    write(outside, { id_rsa: 'SECRET' });
    write(ws, { 'agent/langgraph.json': '{}', 'agent/a.py': '' });
    symlinkSync(outside, join(ws, 'agent/ssh'));
    expect(() => planArchive(ws, 'agent/langgraph.json', { dependencies: ['.', './ssh'] })).toThrow(
      /The local dependency "\.\/ssh" of agent\/langgraph\.json lies outside the repository/,
    );
    expect(() => planArchive(ws, 'agent/langgraph.json', { dependencies: ['.', '/home'] })).toThrow(
      /"\/home" .* lies outside the repository/,
    );
  });

  it('refuses .git (or a folder inside it) as a dependency', () => {
    const ws = dir('hostile-ws-');
    write(ws, { '.git/config': 'token', '.git/hooks/x': '', 'langgraph.json': '{}' });
    for (const dep of ['./.git', './.git/hooks']) {
      expect(() => planArchive(ws, 'langgraph.json', { dependencies: ['.', dep] })).toThrow(
        new RegExp(`dependency "${dep.replace(/\./g, '\\.')}" .*\`\\.git\` folder`),
      );
    }
  });

  it('refuses .git spelt as macOS and Windows runners resolve it (case, trailing dots, 8.3 name)', async () => {
    // On a case-insensitive file system `./.GIT` *is* the `.git` folder, and `realpath` keeps
    // the case as written; Windows drops trailing dots and spaces and knows `GIT~1`. Here
    // (case-sensitive) they are made as folders of their own, holding what `.git` would.
    const ws = dir('hostile-ws-');
    const spellings = ['.GIT', '.Git', '.git.', '.git ', 'GIT~1'];
    write(ws, { 'langgraph.json': '{}', 'a.py': '' });
    for (const s of spellings) write(ws, { [`${s}/config`]: 'extraheader = AUTHORIZATION: token' });
    for (const s of spellings) {
      expect(() => planArchive(ws, 'langgraph.json', { dependencies: ['.', `./${s}`] })).toThrow(
        /`\.git` folder/,
      );
    }
    expect(await entries(ws, 'langgraph.json', { dependencies: ['.'] })).toEqual([
      'a.py',
      'langgraph.json',
    ]);
  });

  it('refuses a sparse 3 GiB file from the sizes alone, at once, naming it', async () => {
    const ws = dir('hostile-ws-');
    write(ws, { 'langgraph.json': '{}', 'a.py': '' });
    writeFileSync(join(ws, 'weights.bin'), '');
    truncateSync(join(ws, 'weights.bin'), 3 * 1024 ** 3);
    const started = performance.now();
    await expect(entries(ws, 'langgraph.json', {})).rejects.toThrow(
      /add up to 3072\.0 MiB.*nothing was read or sent.*weights\.bin \(3072\.0 MiB\)/s,
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('applies the root .gitignore to a dependency folder outside the config folder', async () => {
    const ws = dir('hostile-ws-');
    write(ws, {
      '.gitignore': '*.secret\n',
      'agent/langgraph.json': '{}',
      'agent/a.py': '',
      'shared/lib.py': '',
      'shared/x.secret': 'SECRET',
    });
    expect(await entries(ws, 'agent/langgraph.json', { dependencies: ['.', '../shared'] })).toEqual(
      ['agent/a.py', 'agent/langgraph.json', 'shared/lib.py'],
    );
  });

  it('leaves out a config folder that a parent .gitignore ignores (the config is then missing)', async () => {
    const ws = dir('hostile-ws-');
    write(ws, { '.gitignore': 'agent/\n', 'agent/langgraph.json': '{}' });
    await expect(entries(ws, 'agent/langgraph.json', {})).rejects.toThrow(
      /would not be in the `source: upload` archive/,
    );
  });
});

describe('the build obeys timeout and cancellation', () => {
  function bigCheckout(): string {
    const ws = dir('hostile-big-');
    write(ws, { 'langgraph.json': '{}' });
    writeFileSync(join(ws, 'noise.bin'), randomBytes(8 * 1024 * 1024));
    return ws;
  }

  it('stops when the deadline passes in the middle of the stream, and removes the file', async () => {
    const ws = bigCheckout();
    const tempDir = dir('archive-out-');
    let checks = 0;
    const deadline = { passed: () => ++checks > 5 };
    await expect(
      buildArchive(planArchive(ws, 'langgraph.json', {}), { tempDir, deadline }),
    ).rejects.toThrow(DeadlineError);
    expect(checks).toBeGreaterThan(5);
    expect(execFileSync('ls', ['-A', tempDir]).toString()).toBe('');
  });

  it('checks the deadline within a folder of many files, not only between folders', async () => {
    const ws = dir('hostile-flat-');
    write(ws, { 'langgraph.json': '{}' });
    for (let i = 0; i < 3000; i++) writeFileSync(join(ws, `f${i}.py`), '');
    let checks = 0;
    await expect(
      selectSourceFiles({ folders: [{ absolute: ws, prefix: '' }], workspace: ws }, () => {
        // The first check is on entering the folder; the second can only come from within it.
        if (++checks === 2) throw new DeadlineError('deadline inside the folder');
      }),
    ).rejects.toThrow('deadline inside the folder');
  });

  it('stops on cancellation', async () => {
    const ws = bigCheckout();
    const controller = new AbortController();
    const building = buildArchive(planArchive(ws, 'langgraph.json', {}), {
      tempDir: dir('archive-out-'),
      signal: controller.signal,
    });
    controller.abort();
    await expect(building).rejects.toThrow(CancelledError);
  });

  it('stops on cancellation in the middle of the stream, and removes the file', async () => {
    const ws = bigCheckout();
    const tempDir = dir('archive-out-');
    const controller = new AbortController();
    let checks = 0;
    // The fifth check of the deadline cancels the run: the archive is being written by then.
    const deadline = { passed: () => (++checks === 5 && controller.abort(), false) };
    await expect(
      buildArchive(planArchive(ws, 'langgraph.json', {}), {
        tempDir,
        deadline,
        signal: controller.signal,
      }),
    ).rejects.toThrow(CancelledError);
    expect(execFileSync('ls', ['-A', tempDir]).toString()).toBe('');
  });

  it('a FIFO named like an ignore file neither blocks nor counts', async () => {
    const ws = dir('hostile-ws-');
    write(ws, { 'langgraph.json': '{}', 'a.py': '' });
    execFileSync('mkfifo', [join(ws, '.gitignore')]);
    expect(existsSync(join(ws, '.gitignore'))).toBe(true);
    expect(await entries(ws, 'langgraph.json', {})).toEqual(['a.py', 'langgraph.json']);
  });
});
