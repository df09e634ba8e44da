import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing/index.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';

/*
 * The testing kit without a page: a `window.pipeline` for code in the test itself, over the
 * session `dev` runs, and what a test can inspect afterwards.
 */

const QUOTING = { name: 'Kitchen Estimator', type: 'quoting_extension', entry: 'index.html' };
const line = (description: string, extra: Record<string, unknown> = {}) => ({ description, qty: 1, unitPrice: 10, taxRate: 0.15, ...extra });

let hosts: TestHost[] = [];
const host = async (options: Parameters<typeof createTestHost>[0] = {}) => {
  const made = await createTestHost(options);
  hosts.push(made);
  return made;
};
afterEach(() => {
  for (const made of hosts) made.close();
  hosts = [];
});

describe('createTestHost', () => {
  it('answers from the built-in data and logs each call with its arguments and result', async () => {
    const test = await host({ manifest: QUOTING });
    const page = await test.pipeline.customers.list({ pageSize: 2 });
    expect(page).toMatchObject({ page: 1, pageSize: 2, items: [expect.objectContaining({ name: expect.any(String) }), expect.anything()] });
    expect(test.calls).toEqual([{ method: 'customers.list', args: [{ pageSize: 2 }], status: 'resolved', value: page, warnings: [] }]);
  });

  it('adds lines to the open quote and shows it as the editor and the customer see it', async () => {
    const test = await host({ manifest: QUOTING });
    await test.pipeline.quotes.addLines([line('Labour', { section: 'Work', summaryOnly: true }), line('Sink', { section: 'Parts', qty: 2 })]);
    expect(test.lines().map((l) => [l.description, l.nett])).toEqual([
      ['Labour', 10],
      ['Sink', 20],
    ]);
    expect(test.editorView().totals).toEqual({ nett: 30, tax: 4.5, total: 34.5 });
    expect(test.customerPreview().blocks.map((block) => block.kind)).toEqual(['summary', 'section']);
  });

  it('refuses quotes.addLines to a standalone tool, with the code in the tool and in the log', async () => {
    const test = await host({ manifest: { ...QUOTING, type: 'standalone' } });
    await expect(test.pipeline.quotes.addLines([line('x')])).rejects.toMatchObject({ name: 'BridgeError', code: 'TOOL_TYPE_NOT_ALLOWED' });
    expect(test.calls[0]).toMatchObject({ method: 'quotes.addLines', status: 'rejected', error: { code: 'TOOL_TYPE_NOT_ALLOWED' } });
    expect(test.tool.toolType).toBe('standalone');
  });

  it('takes the tool from a folder, and lets a test switch its type as the host page does', async () => {
    const folder = writeFolder({ 'manifest.json': JSON.stringify({ ...QUOTING, type: 'standalone' }), 'index.html': '<p>x</p>' });
    expect((await host({ manifest: folder })).tool).toEqual({ toolId: 'Kitchen Estimator', toolType: 'standalone', entry: 'index.html' });
    expect((await host({ manifest: path.join(folder, 'manifest.json'), toolType: 'quoting_extension' })).tool.toolType).toBe('quoting_extension');
    const missing = await host({ manifest: writeFolder({ 'index.html': '<p>x</p>' }) });
    expect(missing.tool.toolType).toBe('standalone');
    expect(missing.notices).toEqual([expect.stringContaining('manifest.json is missing')]);
  });

  it('acts as an older SDK: later methods are absent, and known names of later versions too', async () => {
    const test = await host({ sdkVersion: '2.2.0' });
    const sdk = test.pipeline as unknown as Record<string, Record<string, unknown> | undefined> & { version: string };
    expect(sdk.version).toBe('2.2.0');
    expect(sdk['settings']).toBeUndefined();
    expect(sdk['quotes']!['addSections']).toBeUndefined();
  });

  it('rejects an unknown name with UNKNOWN_METHOD and logs it', async () => {
    const test = await host();
    const quotes = test.pipeline.quotes as unknown as Record<string, () => Promise<unknown>>;
    const error = await quotes['update']!().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNKNOWN_METHOD', method: 'quotes.update' });
    expect((error as Error).message).toContain('Did you mean quotes.create?');
    expect(test.calls).toEqual([expect.objectContaining({ method: 'quotes.update', status: 'rejected' })]);
  });

  it('carries arguments as dev does: NaN stays NaN, a function is refused before it is sent', async () => {
    const test = await host({ manifest: QUOTING });
    const nan = await test.pipeline.quotes.addLines([line('x', { qty: Number.NaN })]).catch((e: { code: string; details: { code: string }[] }) => [e.code, e.details[0]?.code]);
    expect(nan).toEqual(['BATCH_REJECTED', 'INVALID_TYPE']);
    await expect(test.pipeline.settings.set('f', () => 1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(test.calls.map((call) => call.method)).toEqual(['quotes.addLines']);
  });

  it('refuses a call over 5,000,000 bytes of JSON with CALL_TOO_LARGE, as dev does, and takes one of exactly that size', async () => {
    const test = await host({ manifest: QUOTING });
    // {"method":"settings.set","args":["big","xxx…"]}: 42 bytes around the value.
    const exactly = (bytes: number) => 'x'.repeat(bytes - JSON.stringify({ method: 'settings.set', args: ['big', ''] }).length);
    await expect(test.pipeline.settings.set('big', exactly(5_000_000))).resolves.toBeUndefined();
    const refused = await test.pipeline.settings.set('big', exactly(5_000_001)).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      name: 'BridgeError',
      code: 'CALL_TOO_LARGE',
      method: 'settings.set',
      message:
        'settings.set was not run: the call is 5,000,001 bytes as JSON, more than the 5,000,000 the emulated host takes in one call. Nothing was changed; send less in one call (fewer lines in a batch, say).',
      details: [],
    });
    expect(test.calls.map((call) => [call.method, call.status, call.error?.code ?? null])).toEqual([
      ['settings.set', 'resolved', null],
      ['settings.set', 'rejected', 'CALL_TOO_LARGE'],
    ]);
    // Multi-byte text counts in bytes, as it crosses: 2,500,001 é are over the limit.
    const accents = await test.pipeline.quotes.addLines([line('é'.repeat(2_500_001))]).catch((error: unknown) => error);
    expect((accents as { code: string }).code).toBe('CALL_TOO_LARGE');
    expect(test.lines()).toEqual([]);
  });

  it('warns of a tax rate over 100% once read, on quotes.create and quotes.addLines alike, as dev does', async () => {
    const test = await host({ manifest: QUOTING });
    await test.pipeline.quotes.create({ customerName: 'A', upsertByEmail: false, lines: [{ qty: 1, unitPrice: 10, taxRate: 15 }] });
    await test.pipeline.quotes.addLines([line('Bench', { taxRate: 1500 })]);
    expect(test.warnings.map((warning) => [warning.method, warning.code, warning.path])).toEqual([
      ['quotes.create', 'TAX_RATE_LOOKS_LIKE_PERCENT', 'lines[0].taxRate'],
      ['quotes.addLines', 'TAX_RATE_LOOKS_LIKE_PERCENT', 'lines[0].taxRate'],
    ]);
  });

  it('applies hundreds of un-awaited calls in the order they were made', async () => {
    const test = await host({ manifest: QUOTING });
    for (let i = 0; i < 300; i++) void test.pipeline.quotes.addLines([line(`c${i}`)]);
    void test.pipeline.settings.set('mode', 'first');
    void test.pipeline.settings.set('mode', 'second');
    await test.settled();
    expect(test.lines().map((l) => l.description)).toEqual(Array.from({ length: 300 }, (_, i) => `c${i}`));
    expect(test.settings()).toEqual({ mode: 'second' });
  });

  it('reads fixtures from a file or an object, in the format of dev --fixtures', async () => {
    const fixtures = { context: { userName: 'Ana Test' }, customers: [{ id: '10000000-0000-4000-8000-000000000999', name: 'Zed Fixture', email: 'zed@example.com', phone: '' }] };
    const file = path.join(tempDir(), 'fixtures.json');
    writeFileSync(file, JSON.stringify(fixtures));
    for (const given of [file, fixtures]) {
      const test = await host({ fixtures: given, userRole: 'H_Field', cultureCode: 'en-AU' });
      expect(await test.pipeline.context.get()).toMatchObject({ userName: 'Ana Test', userRole: 'H_Field', cultureCode: 'en-AU' });
      const all = await test.pipeline.customers.list({ pageSize: 1000 });
      expect(all.items.map((customer) => customer.name)).toContain('Zed Fixture');
    }
    await expect(createTestHost({ fixtures: { products: [{ id: 'not a guid' }] } as never })).rejects.toMatchObject({ name: 'FixtureError', code: 'FIXTURE_INVALID' });
  });

  it('keeps settings in memory, starting from those given, and resets cleanly', async () => {
    const test = await host({ manifest: QUOTING, settings: { units: 'metric' } });
    expect(await test.pipeline.settings.get('units')).toBe('metric');
    await test.pipeline.settings.set('units', 'imperial');
    await test.pipeline.quotes.addLines([line('x')]);
    expect(test.settings()).toEqual({ units: 'imperial' });
    await test.reset();
    expect(test.calls).toEqual([]);
    expect(test.lines()).toEqual([]);
    expect(test.settings()).toEqual({ units: 'metric' });
    // The same pipeline object keeps working after a reset.
    expect(await test.pipeline.settings.get('units')).toBe('metric');
  });

  it('waits in settled() for calls made in reaction to answers, and gives up on a tool that never stops', async () => {
    const test = await host();
    const chain = (left: number): Promise<unknown> => test.pipeline.context.get().then(() => (left > 0 ? chain(left - 1) : undefined));
    void chain(20);
    await test.settled();
    expect(test.calls).toHaveLength(21);
    let polling = true;
    const poll = (): Promise<unknown> => test.pipeline.context.get().then(() => (polling ? poll() : undefined));
    void poll();
    await expect(test.settled()).rejects.toThrow(/still calling the bridge after \d+ calls in 1000 rounds/);
    polling = false;
    await test.settled();
  });

  it('collects the warnings of each call', async () => {
    const test = await host({ manifest: QUOTING });
    await test.pipeline.costItems.list();
    expect(test.warnings).toEqual([expect.objectContaining({ code: 'DEPRECATED', method: 'costItems.list' })]);
    expect(test.calls[0]!.warnings).toEqual(test.warnings);
  });

  it('installs window.pipeline on a given object and takes it away again', async () => {
    const test = await host();
    const target: { pipeline?: unknown } = {};
    expect(test.install(target)).toBe(test.pipeline);
    expect(target.pipeline).toBe(test.pipeline);
    test.close();
    expect('pipeline' in target).toBe(false);
  });

  it('says what is wrong with its options', async () => {
    await expect(createTestHost({ sdkVersion: '3.0.0' })).rejects.toThrow(/sdkVersion must be a version from 2\.1\.0 to 2\.5\.0/);
    await expect(createTestHost({ userRole: 'not a role!' })).rejects.toThrow(/createTestHost: userRole must be a role token/);
    await expect(createTestHost({ manifest: path.join(tempDir(), 'nowhere') })).rejects.toThrow(/does not exist/);
  });
});
