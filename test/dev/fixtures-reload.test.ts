import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevServerError } from '../../src/dev/errors.js';
import { startDevServer } from '../../src/dev/server.js';
import { DEFAULT_API_KEY, DEFAULT_FIXTURES } from '../../src/platform/index.js';
import { tempDir } from '../helpers/bundles.js';
import { callBridge, readState, SETTLE_MS, startTestServer, waitFor, writeTool } from './helpers.js';

const productsWith = (sku: string) =>
  JSON.stringify({ products: [{ id: '20000000-0000-4000-8000-000000000901', sku, name: `Fixture ${sku}`, price: 10, unit: 'T_ITEM' }] }, null, 2);

async function skus(server: Parameters<typeof callBridge>[0]): Promise<string[]> {
  const outcome = await callBridge(server, 'products.list', [{ pageSize: 500 }]);
  return (outcome.value as { items: { sku: string }[] }).items.map((item) => item.sku);
}

/** The host page's event stream, as the page opens it: what arrived so far, as text. */
async function openEvents(server: Parameters<typeof callBridge>[0]): Promise<{ text: () => string; close: () => void }> {
  const chunks: string[] = [];
  const request = httpRequest({ host: '127.0.0.1', port: server.port, path: '/__pipeline/events', headers: { Host: `127.0.0.1:${server.port}`, Accept: 'text/event-stream' } });
  await new Promise<void>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => chunks.push(chunk));
      resolve();
    });
    request.end();
  });
  return { text: () => chunks.join(''), close: () => request.destroy() };
}

/** The frames of one type in an event stream's text, their data parsed. */
const framesOf = (text: string, type: string) =>
  [...text.matchAll(/^event: (.*)\ndata: (.*)$/gm)].filter((match) => match[1] === type).map((match) => JSON.parse(match[2]!) as Record<string, unknown>);

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
    await waitFor(async () => (await skus(server)).includes('FIX-TWO'), SETTLE_MS, 'the edited fixtures');
    expect(await skus(server)).not.toContain('FIX-ONE');
  });

  it('tells the page it changed, reloading its tool, and tells the page opened again after that reload too', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-ONE'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    const fixturesChanged = { reason: 'the fixtures changed' };
    const notice = { level: 'info', message: 'Fixtures reloaded; the open quote starts over.' };

    const first = await openEvents(server);
    writeFileSync(fixturesFile, productsWith('FIX-TWO'));
    await waitFor(() => framesOf(first.text(), 'reload').length > 0, SETTLE_MS, 'the reload event');
    // A save may reach the watcher as two changes; each reload it sets off says why.
    expect(framesOf(first.text(), 'reload')).toEqual(framesOf(first.text(), 'reload').map(() => fixturesChanged));
    expect(framesOf(first.text(), 'notice')).toContainEqual(notice);
    expect(await skus(server)).toContain('FIX-TWO');

    // The page reloads: its stream closes and a new one opens, which hears of the next change.
    first.close();
    const again = await openEvents(server);
    writeFileSync(fixturesFile, productsWith('FIX-THREE'));
    await waitFor(() => framesOf(again.text(), 'reload').length > 0, SETTLE_MS, 'the reload event after the page reloaded');
    again.close();
    expect(framesOf(again.text(), 'reload')).toEqual(framesOf(again.text(), 'reload').map(() => fixturesChanged));
    expect(framesOf(again.text(), 'notice')).toContainEqual(notice);
    expect(await skus(server)).toContain('FIX-THREE');
  });

  it('gives the REST API the keys of the reloaded file, and a replacing file without keys leaves none', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify({ apiKeys: [{ key: 'first-key-0001' }] }));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    const status = async (key: string) => (await fetch(`${server.apiUrl}/customers`, { headers: { Authorization: `Bearer ${key}` } })).status;
    expect(await status('first-key-0001')).toBe(200);
    expect(server.apiKey).toBe(DEFAULT_API_KEY);

    writeFileSync(fixturesFile, JSON.stringify({ mode: 'replace', context: DEFAULT_FIXTURES.context, apiKeys: [{ key: 'second-key-0002', scopes: ['GET /api/v1/quotes'] }] }));
    await waitFor(async () => (await status('second-key-0002')) === 403, SETTLE_MS, 'the reloaded keys');
    expect(await status('first-key-0001')).toBe(401);
    expect(await status(DEFAULT_API_KEY)).toBe(401);
    // The only key may not call everything, but it is still the one to offer.
    expect(server.apiKey).toBe('second-key-0002');

    writeFileSync(fixturesFile, JSON.stringify({ mode: 'replace', context: DEFAULT_FIXTURES.context }));
    await waitFor(async () => (await status('second-key-0002')) === 401, SETTLE_MS, 'a file without keys');
    expect(server.apiKey).toBeNull();
  });

  it('that breaks keeps the previous data and reports where the problem is', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-KEEP'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });

    writeFileSync(fixturesFile, '{\n  "products": [\n    { "id": 5 }\n  ]\n}\n');
    const error = await waitFor(async () => (await readState(server))['fixtures'].error as string | null, SETTLE_MS, 'the fixture error');
    expect(error).toContain(`${fixturesFile}:3:`);
    expect(await skus(server)).toContain('FIX-KEEP');

    writeFileSync(fixturesFile, productsWith('FIX-FIXED'));
    await waitFor(async () => (await readState(server))['fixtures'].error === null, SETTLE_MS, 'the error to clear');
    expect(await skus(server)).toContain('FIX-FIXED');
  });

  it('saved nested deeper than 512 levels keeps the previous data and names the limit, at its line', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-KEEP'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });

    // Valid JSON that JSON.parse reads: only the depth is wrong.
    writeFileSync(fixturesFile, `{\n  "settings": {\n    "deep": ${'['.repeat(600)}${']'.repeat(600)}\n  }\n}\n`);
    const error = await waitFor(async () => (await readState(server))['fixtures'].error as string | null, SETTLE_MS, 'the fixture error');
    expect(error).toContain(`${fixturesFile}:3:`);
    expect(error).toContain('the limit is 512');
    expect(await skus(server)).toContain('FIX-KEEP');
  });

  it('of 100,000 rows reloads while the server keeps answering with the previous data, then swaps it whole', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-SMALL'));
    const root = writeTool();
    const server = await startTestServer({ root, fixturesFile });
    const totalCount = async () => ((await callBridge(server, 'products.list', [{ pageSize: 1 }])).value as { totalCount: number }).totalCount;
    const before = await totalCount();
    // The small file's one product goes; the built-in products of this tenant stay.
    const after = before - 1 + 100_000;
    const products = Array.from({ length: 100_000 }, (_, n) => ({
      id: `b${n.toString(16).padStart(7, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
      sku: `SKU-${n}`,
      name: `Product ${n}`,
      price: n % 1000,
      unit: 'T_ITEM',
    }));
    writeFileSync(fixturesFile, JSON.stringify({ products }));

    // Every answer while the file loads comes from one whole data set or the other, never a mix;
    // and the server answers while the load is under way (the state says so itself).
    const counts = new Set<number>();
    let answeredWhileReloading = 0;
    await waitFor(
      async () => {
        const [state, listed, file] = await Promise.all([
          readState(server),
          callBridge(server, 'products.list', [{ pageSize: 1 }]),
          fetch(new URL('app.js', server.toolUrl), { signal: AbortSignal.timeout(10_000) }),
        ]);
        expect(file.status).toBe(200);
        const fixtures = state['fixtures'] as { reloading: boolean; error: string | null };
        expect(fixtures.error).toBeNull();
        if (fixtures.reloading) answeredWhileReloading++;
        const count = (listed.value as { totalCount: number }).totalCount;
        counts.add(count);
        return count === after && !fixtures.reloading;
      },
      60_000,
      'the 100,000 rows',
    );
    expect([...counts].filter((count) => count !== before && count !== after)).toEqual([]);
    expect(answeredWhileReloading).toBeGreaterThan(0);
    const lastPage = Math.ceil(after / 50);
    const last = (await callBridge(server, 'products.list', [{ page: lastPage, pageSize: 50 }])).value as { items: { sku: string }[] };
    expect(last.items.at(-1)!.sku).toBe('SKU-99999');
  }, 90_000);

  it('saved twice in quick succession ends with the data of the last save', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, productsWith('FIX-FIRST'));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    const countOf = async () => ((await callBridge(server, 'products.list', [{ pageSize: 1 }])).value as { totalCount: number }).totalCount;
    const first = await countOf();
    const many = Array.from({ length: 50_000 }, (_, n) => ({ id: `b${n.toString(16).padStart(7, '0')}-0000-4000-8000-000000000001`, sku: `MANY-${n}`, name: 'n', price: 1, unit: 'T_ITEM' }));
    writeFileSync(fixturesFile, JSON.stringify({ products: many }));
    // Mostly the second save lands while the first is still loading; either way the last one wins.
    await waitFor(async () => (await readState(server))['fixtures'].reloading === true || (await countOf()) !== first, SETTLE_MS, 'the first reload');
    writeFileSync(fixturesFile, productsWith('FIX-LAST'));
    await waitFor(async () => (await skus(server)).includes('FIX-LAST'), SETTLE_MS, 'the last save');
    await waitFor(async () => (await readState(server))['fixtures'].reloading === false, SETTLE_MS, 'the reload to end');
    expect(await countOf()).toBe(first);
    expect(await skus(server)).not.toContain('FIX-FIRST');
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
