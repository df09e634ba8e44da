import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevServerError } from '../../src/dev/errors.js';
import { startDevServer } from '../../src/dev/server.js';
import { DEFAULT_API_KEY, DEFAULT_FIXTURES } from '../../src/platform/index.js';
import { tempDir } from '../helpers/bundles.js';
import { callBridge, readState, startTestServer, waitFor, writeTool } from './helpers.js';

const productsWith = (sku: string) =>
  JSON.stringify({ products: [{ id: '20000000-0000-4000-8000-000000000901', sku, name: `Fixture ${sku}`, price: 10, unit: 'T_ITEM' }] }, null, 2);

async function skus(server: Parameters<typeof callBridge>[0]): Promise<string[]> {
  const outcome = await callBridge(server, 'products.list', [{ pageSize: 500 }]);
  return (outcome.value as { items: { sku: string }[] }).items.map((item) => item.sku);
}

describe('a fixture file', () => {
  it('kept in the tool folder, is left out of the findings as pack leaves it out, even without its $schema', async () => {
    const root = writeTool();
    const fixturesFile = path.join(root, 'dev-data.json');
    writeFileSync(fixturesFile, productsWith('FIX-IN'));
    const server = await startTestServer({ root, fixturesFile, watch: false });
    const findings = (await readState(server))['findings'] as { ok: boolean; report: { problems: unknown[]; excluded: unknown[] } };
    expect(findings.ok).toBe(true);
    expect(findings.report.problems).toEqual([]);
    expect(findings.report.excluded).toContainEqual({ path: 'dev-data.json', kind: 'file', reason: 'fixtures' });
    expect(await skus(server)).toContain('FIX-IN');
  });

  it('is laid over the built-in data, and reloaded when it changes', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-ONE'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    expect(await skus(server)).toContain('FIX-ONE');
    expect(await skus(server)).toContain('CAB-BASE-600');

    writeFileSync(fixturesFile, productsWith('FIX-TWO'));
    await waitFor(async () => (await skus(server)).includes('FIX-TWO'), 5_000, 'the edited fixtures');
    expect(await skus(server)).not.toContain('FIX-ONE');
  });

  it('gives the REST API the keys of the reloaded file, and a replacing file without keys leaves none', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify({ apiKeys: [{ key: 'first-key-0001' }] }));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    const status = async (key: string) => (await fetch(`${server.apiUrl}/customers`, { headers: { Authorization: `Bearer ${key}` } })).status;
    expect(await status('first-key-0001')).toBe(200);
    expect(server.apiKey).toBe(DEFAULT_API_KEY);

    writeFileSync(fixturesFile, JSON.stringify({ mode: 'replace', context: DEFAULT_FIXTURES.context, apiKeys: [{ key: 'second-key-0002', scopes: ['GET /api/v1/quotes'] }] }));
    await waitFor(async () => (await status('second-key-0002')) === 403, 5_000, 'the reloaded keys');
    expect(await status('first-key-0001')).toBe(401);
    expect(await status(DEFAULT_API_KEY)).toBe(401);
    // The only key may not call everything, but it is still the one to offer.
    expect(server.apiKey).toBe('second-key-0002');

    writeFileSync(fixturesFile, JSON.stringify({ mode: 'replace', context: DEFAULT_FIXTURES.context }));
    await waitFor(async () => (await status('second-key-0002')) === 401, 5_000, 'a file without keys');
    expect(server.apiKey).toBeNull();
  });

  it('that breaks keeps the previous data and reports where the problem is', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-KEEP'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });

    writeFileSync(fixturesFile, '{\n  "products": [\n    { "id": 5 }\n  ]\n}\n');
    const error = await waitFor(async () => (await readState(server))['fixtures'].error as string | null, 5_000, 'the fixture error');
    expect(error).toContain(`${fixturesFile}:3:`);
    expect(await skus(server)).toContain('FIX-KEEP');

    writeFileSync(fixturesFile, productsWith('FIX-FIXED'));
    await waitFor(async () => (await readState(server))['fixtures'].error === null, 5_000, 'the error to clear');
    expect(await skus(server)).toContain('FIX-FIXED');
  });

  it('that is broken at start stops the server from starting, with the location', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, '{\n  "products": [,]\n}');
    const failure = await startDevServer({ root: writeTool(), port: 0, fixturesFile, watch: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DevServerError);
    expect((failure as DevServerError).code).toBe('FIXTURES_INVALID');
    expect((failure as Error).message).toContain(`${fixturesFile}:2:`);
  });

  it('that is missing is named in the error', async () => {
    const fixturesFile = path.join(tempDir(), 'nope.json');
    const failure = await startDevServer({ root: writeTool(), port: 0, fixturesFile, watch: false }).catch((error: unknown) => error);
    expect((failure as Error).message).toContain('nope.json');
    expect((failure as Error).message).toContain('file not found');
  });
});

describe('starting the server', () => {
  it.each([
    [{ sdkVersion: '2.0.0' }, 'INVALID_OPTION'],
    [{ sdkVersion: 'latest' }, 'INVALID_OPTION'],
    [{ port: 70000 }, 'INVALID_OPTION'],
    [{ port: -1 }, 'INVALID_OPTION'],
  ])('refuses %j', async (options, code) => {
    const failure = await startDevServer({ root: writeTool(), port: 0, watch: false, ...options }).catch((error: unknown) => error);
    expect((failure as DevServerError).code).toBe(code);
  });

  it('refuses a folder that does not exist, or a file', async () => {
    const missing = await startDevServer({ root: path.join(tempDir(), 'nope'), port: 0 }).catch((error: unknown) => error);
    expect((missing as DevServerError).code).toBe('ROOT_NOT_FOUND');
    const file = path.join(writeTool(), 'manifest.json');
    const notFolder = await startDevServer({ root: file, port: 0 }).catch((error: unknown) => error);
    expect((notFolder as Error).message).toContain('is not a folder');
  });

  it('says so when the port is taken, suggesting another', async () => {
    const first = await startTestServer({ root: writeTool(), watch: false });
    const failure = await startDevServer({ root: writeTool(), port: first.port, watch: false }).catch((error: unknown) => error);
    expect((failure as DevServerError).code).toBe('PORT_IN_USE');
    expect((failure as Error).message).toMatch(new RegExp(`port ${first.port} on 127\\.0\\.0\\.1 is already in use.*--port \\d+`));
  });
});
