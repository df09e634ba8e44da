import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSettingsFile } from '../../src/dev/settings-file.js';
import { tempDir } from '../helpers/bundles.js';
import { canMakeSmallDisks, fillDisk, mountSmallDisk } from '../helpers/small-disk.js';
import { callBridge, readState, startTestServer, writeTool } from './helpers.js';

const scope = { tenantId: 'tenant-1', toolId: 'Kitchen Estimator' };

describe('the settings file', () => {
  it('creates nothing until the first write, then keeps values across reopening', async () => {
    const file = path.join(tempDir(), '.pipeline-tool', 'settings.json');
    const first = await openSettingsFile(file);
    expect(first.problem).toBeNull();
    expect(existsSync(file)).toBe(false);
    await first.store.write(scope, 'units', 'metric');
    await first.store.write(scope, 'layout', { columns: 2, names: ['a', 'b'] });
    await first.store.write({ ...scope, toolId: 'Other' }, 'units', 'imperial');

    const second = await openSettingsFile(file);
    expect(second.store.read(scope, 'units')).toBe('metric');
    expect(second.store.read(scope, 'layout')).toEqual({ columns: 2, names: ['a', 'b'] });
    expect(second.store.read({ ...scope, toolId: 'Other' }, 'units')).toBe('imperial');
    expect(second.store.read(scope, 'missing')).toBeUndefined();
    // Written through a temporary file and a rename: nothing half-written is left behind.
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['.gitignore', 'settings.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'pipeline-tool-settings', version: 1 });
  });

  it('keeps a stored null over the fixture default, across a restart of dev', async () => {
    const root = writeTool();
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify({ settings: [{ toolId: 'Kitchen Estimator', key: 'units', value: 'metric' }] }));
    const settingsFile = path.join(tempDir(), 'settings.json');
    const first = await startTestServer({ root, fixturesFile, settingsFile, watch: false });
    expect((await callBridge(first, 'settings.get', ['units'])).value).toBe('metric');
    await callBridge(first, 'settings.set', ['units', null]);
    expect((await callBridge(first, 'settings.get', ['units'])).value).toBeNull();
    await first.close();
    const second = await startTestServer({ root, fixturesFile, settingsFile, watch: false });
    expect((await callBridge(second, 'settings.get', ['units'])).value).toBeNull();
  });

  it('keeps a key named __proto__ as data', async () => {
    const file = path.join(tempDir(), 'settings.json');
    const { store } = await openSettingsFile(file);
    await store.write(scope, '__proto__', { polluted: true });
    const again = await openSettingsFile(file);
    expect(again.store.read(scope, '__proto__')).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('clears one tool of one tenant only', async () => {
    const file = path.join(tempDir(), 'settings.json');
    const { store } = await openSettingsFile(file);
    await store.write(scope, 'a', 1);
    await store.write({ ...scope, tenantId: 'tenant-2' }, 'a', 2);
    await store.clear(scope);
    const again = await openSettingsFile(file);
    expect(again.store.read(scope, 'a')).toBeUndefined();
    expect(again.store.read({ ...scope, tenantId: 'tenant-2' }, 'a')).toBe(2);
  });

  it('keeps the last of many quick writes', async () => {
    const file = path.join(tempDir(), 'settings.json');
    const { store } = await openSettingsFile(file);
    await Promise.all(Array.from({ length: 25 }, (_, i) => store.write(scope, 'count', i)));
    expect((await openSettingsFile(file)).store.read(scope, 'count')).toBe(24);
  });

  it.each([
    ['not JSON', '{"settings": [}'],
    ['the wrong shape', '{"settings": {"a": 1}}'],
    ['an entry without a key', '{"settings": [{"tenantId": "t", "toolId": "x", "value": 1}]}'],
    ['an empty file', ''],
  ])('starts empty when the file is %s, keeping the bad file aside', async (_what, content) => {
    const file = path.join(tempDir(), 'settings.json');
    writeFileSync(file, content);
    const { store, problem } = await openSettingsFile(file);
    expect(problem).toMatchObject({ file, keptAs: `${file}.corrupt` });
    expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe(content);
    expect(store.entries()).toEqual([]);
    await store.write(scope, 'fresh', true);
    expect((await openSettingsFile(file)).store.read(scope, 'fresh')).toBe(true);
  });
});

describe('settings in the dev server', () => {
  it('survive a restart of the server', async () => {
    const root = writeTool();
    const first = await startTestServer({ root, watch: false });
    expect((await callBridge(first, 'settings.set', ['units', { system: 'metric', decimals: 2 }])).ok).toBe(true);
    await first.close();
    expect(existsSync(path.join(root, '.pipeline-tool', 'settings.json'))).toBe(true);

    const second = await startTestServer({ root, watch: false });
    expect((await callBridge(second, 'settings.get', ['units'])).value).toEqual({ system: 'metric', decimals: 2 });
    expect((await readState(second))['settings'].entries).toEqual([
      { tenantId: 'e0000000-0000-4000-8000-000000000001', toolId: 'Kitchen Estimator', key: 'units', value: { system: 'metric', decimals: 2 } },
    ]);
  });

  it('leave the settings folder out of the validation findings', async () => {
    const root = writeTool();
    const server = await startTestServer({ root, watch: false });
    await callBridge(server, 'settings.set', ['units', 'metric']);
    await server.close();
    const again = await startTestServer({ root, watch: false });
    expect((await readState(again))['findings'].report.problems).toEqual([]);
  });

  it('leave a settings folder deeper in the tool folder out of the findings too', async () => {
    const root = writeTool();
    const settingsFile = path.join(root, 'lib', '.dev-state', 'settings.json');
    const server = await startTestServer({ root, watch: false, settingsFile });
    await callBridge(server, 'settings.set', ['units', 'metric']);
    await server.close();
    expect(existsSync(settingsFile)).toBe(true);
    const again = await startTestServer({ root, watch: false, settingsFile });
    expect((await readState(again))['findings'].report.problems).toEqual([]);
  });

  it('warn and start empty when the file is corrupt', async () => {
    const root = writeTool();
    const settingsFile = path.join(tempDir(), 'settings.json');
    writeFileSync(settingsFile, '{ broken');
    const logs: string[] = [];
    const server = await startTestServer({ root, watch: false, settingsFile, onLog: (level, message) => logs.push(`${level}: ${message}`) });
    expect(logs.join('\n')).toMatch(/^warning: .*settings\.json could not be used .*starting with no stored settings\. The old file is kept as .*settings\.json\.corrupt/);
    expect((await callBridge(server, 'settings.get', ['units'])).value).toBeNull();
  });
});

describe.skipIf(!canMakeSmallDisks('settings on a full disk'))('settings on a full disk', () => {
  /** The settings folder on a small disk holding a saved setting, then filled to the brim. */
  async function fullDisk() {
    const disk = mountSmallDisk({ sizeKiB: 64 });
    const file = path.join(disk, '.pipeline-tool', 'settings.json');
    const opened = await openSettingsFile(file);
    await opened.store.write(scope, 'units', 'metric');
    const saved = readFileSync(file, 'utf8');
    const filler = fillDisk(disk);
    return { file, saved, filler, ...opened };
  }

  it('a write the disk refuses changes neither memory nor the file, and leaves no temporary file', async () => {
    const { file, saved, filler, store } = await fullDisk();
    const failure = await Promise.resolve(store.write(scope, 'units', 'imperial'.repeat(2000))).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toBe(
      `the settings were not saved and are unchanged: the disk holding ${path.dirname(file)} is full (ENOSPC), so ${file} could not be written. Free some space, then try again.`,
    );
    expect(store.read(scope, 'units')).toBe('metric');
    expect(store.entries()).toEqual([{ ...scope, key: 'units', value: 'metric' }]);
    expect(readFileSync(file, 'utf8')).toBe(saved);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['.gitignore', 'settings.json']);
    await expect(store.clear(scope)).rejects.toThrow(/is full \(ENOSPC\)/);
    expect(store.read(scope, 'units')).toBe('metric');

    // Once there is room again, writing works as before.
    rmSync(filler);
    await store.write(scope, 'units', 'imperial');
    expect((await openSettingsFile(file)).store.read(scope, 'units')).toBe('imperial');
  });

  it('settings.set in dev fails with the reason, settings.get still gives the saved value, and the terminal says why', async () => {
    const disk = mountSmallDisk({ sizeKiB: 64 });
    const settingsFile = path.join(disk, 'settings.json');
    const logs: string[] = [];
    const server = await startTestServer({ root: writeTool(), watch: false, settingsFile, onLog: (level, message) => logs.push(`${level}: ${message}`) });
    expect((await callBridge(server, 'settings.set', ['units', 'metric'])).ok).toBe(true);
    const saved = readFileSync(settingsFile, 'utf8');
    fillDisk(disk);

    const refused = await callBridge(server, 'settings.set', ['units', 'imperial'.repeat(2000)]);
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused.error)).toContain(`the disk holding ${disk} is full (ENOSPC)`);
    expect((await callBridge(server, 'settings.get', ['units'])).value).toBe('metric');
    expect((await readState(server))['settings'].entries).toEqual([{ tenantId: 'e0000000-0000-4000-8000-000000000001', toolId: 'Kitchen Estimator', key: 'units', value: 'metric' }]);
    expect(readFileSync(settingsFile, 'utf8')).toBe(saved);
    expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(logs).toContain(
      `error: the settings were not saved and are unchanged: the disk holding ${disk} is full (ENOSPC), so ${settingsFile} could not be written. Free some space, then try again.`,
    );
  });
});
