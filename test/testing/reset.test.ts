import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestHost, loadTool } from '../../src/testing/index.js';
import { writeFolder } from '../helpers/bundles.js';

/*
 * `reset()` is how a test file that shares one host starts each test from nothing: the open
 * quote, the settings, the calls and the warnings all go back to how the host began. A warning
 * left over from an earlier test would make `expect(host.warnings).toEqual([])` fail in a test
 * that did nothing wrong, or hide which call a warning came from.
 */

const QUOTING = { name: 'Shared Host', shortName: 'Shared', type: 'quoting_extension', version: '1.0.0', description: 'A test.', entry: 'index.html' };
const DEPRECATED_LINE = { description: 'Call-out', qty: 1, unitPrice: 80, taxRate: 0.15, lineType: 'cost' as const };

describe('reset() on a host shared by a test file', () => {
  const shared = createTestHost({ manifest: QUOTING });
  beforeEach(async () => (await shared).reset());
  afterAll(async () => (await shared).close());

  it('clears the warnings, the calls and the quote, and later warnings are collected afresh', async () => {
    const host = await shared;
    await host.pipeline.costItems.list();
    await host.pipeline.quotes.addLines([DEPRECATED_LINE]);
    expect(host.warnings.map((warning) => [warning.method, warning.code])).toEqual([
      ['costItems.list', 'DEPRECATED'],
      ['quotes.addLines', 'DEPRECATED'],
    ]);

    await host.reset();
    expect(host.warnings).toEqual([]);
    expect(host.calls).toEqual([]);
    expect(host.lines()).toEqual([]);

    // The same pipeline goes on working, and what it warns about now is all there is.
    await host.pipeline.quotes.addLines([DEPRECATED_LINE]);
    expect(host.warnings).toEqual([expect.objectContaining({ code: 'DEPRECATED', method: 'quotes.addLines', path: 'lines[0].lineType' })]);
    expect(host.calls.map((call) => call.warnings)).toEqual([host.warnings]);
  });

  it('waits for a call still under way, so its warning cannot arrive after the reset', async () => {
    const host = await shared;
    void host.pipeline.costItems.list();
    await host.reset();
    await host.settled();
    expect(host.warnings).toEqual([]);
    expect(host.calls).toEqual([]);
  });
});

describe('reset() on the host of a loaded page', () => {
  it('leaves none of the warnings of what the page did before', async () => {
    const folder = writeFolder({
      'manifest.json': JSON.stringify(QUOTING),
      'index.html': '<!doctype html><title>Old</title><button id="add" type="button">Add</button><script src="app.js"></script>',
      'app.js':
        "window.pipeline.costItems.list();\ndocument.getElementById('add').addEventListener('click', () => window.pipeline.quotes.addLines([{ description: 'Call-out', qty: 1, unitPrice: 80, taxRate: 0.15, lineType: 'cost' }]));\n",
    });
    const tool = await loadTool(folder);
    try {
      expect(tool.host.warnings.map((warning) => warning.method)).toEqual(['costItems.list']);
      await tool.host.reset();
      expect(tool.host.warnings).toEqual([]);
      await tool.click('#add');
      expect(tool.host.warnings.map((warning) => warning.method)).toEqual(['quotes.addLines']);
      expect(tool.errors).toEqual([]);
    } finally {
      tool.close();
    }
  });
});
