import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STACK_TRACE } from '../helpers/cli.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

describe('npm run demo (trying a clone)', () => {
  it('scaffolds, packs and validates a tool, then cleans up after itself', () => {
    const run = spawnSync(process.execPath, [DEMO], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1/3 Scaffold a quoting extension');
    expect(run.stdout).toMatch(/Packed .*kitchen-1\.0\.0\.zip/);
    expect(run.stdout).toMatch(/kitchen-1\.0\.0\.zip: no problems/);
    const zip = /^\$ pipeline-tool validate (\S+)$/m.exec(run.stdout)![1]!;
    expect(zip).toMatch(/kitchen-1\.0\.0\.zip$/);
    expect(existsSync(zip)).toBe(false);
  });
});
