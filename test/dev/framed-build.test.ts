import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { QUOTING_MANIFEST, readState, SETTLE_MS, startTestServer, toolFiles, waitFor } from './helpers.js';

/*
 * `dev --url` with a build folder that comes and goes: the findings panel follows the folder from
 * "not there yet" to its findings when a build makes it, and back when a build deletes it.
 */
describe('dev --url follows the build folder', () => {
  it('shows the findings once a build makes the folder, and says it is gone when it is deleted', async () => {
    const project = tempDir();
    writeFileSync(path.join(project, 'manifest.json'), JSON.stringify(QUOTING_MANIFEST));
    const dist = path.join(project, 'dist');
    const server = await startTestServer({ root: dist, url: 'http://localhost:5999/app/', manifest: project });
    const findings = async () => (await readState(server))['findings'] as { ok: boolean; message?: string };
    expect((await findings()).ok).toBe(false);

    mkdirSync(dist);
    for (const [name, text] of Object.entries(toolFiles(QUOTING_MANIFEST))) writeFileSync(path.join(dist, name), text);
    await waitFor(async () => (await findings()).ok, SETTLE_MS, 'the findings of the new build');

    rmSync(dist, { recursive: true });
    await waitFor(async () => /^dist\/ is not there yet/.test((await findings()).message ?? ''), SETTLE_MS, 'the panel to say the folder is gone');
  }, 90_000);
});
