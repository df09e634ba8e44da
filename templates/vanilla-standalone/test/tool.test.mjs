// Tests of the tool against pipeline-tool's emulated host: the page in src/ is loaded as the
// platform would load it (manifest.json, the entry page, its scripts), with the same
// window.pipeline and sample data as `npm run dev`. Run them with `npm test`.

import assert from 'node:assert/strict';
import { afterEach, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadTool } from 'pipeline-tool/testing';

const TOOL = fileURLToPath(new URL('../src/', import.meta.url));

/** @type {import('pipeline-tool/testing').LoadedTool[]} */
const opened = [];
/** @param {import('pipeline-tool/testing').LoadToolOptions} [options] */
async function open(options) {
  const tool = await loadTool(TOOL, options);
  opened.push(tool);
  return tool;
}
afterEach(() => {
  for (const tool of opened.splice(0)) tool.close();
});
// The first page of a test run loads jsdom too: under a second of CPU, but several seconds on a
// busy machine or in CI. Done once here, with time to spare, it keeps that out of the tests, which
// then take a tenth of a second each. (In vitest, do the same in beforeAll, whose own limit is
// 10 s, or raise testTimeout.)
before(async () => (await loadTool(TOOL)).close(), { timeout: 120_000 });

/**
 * Fills the first line row of the new-quote form.
 * @param {import('pipeline-tool/testing').LoadedTool} tool
 * @param {{ description?: string, qty?: number | string, unitPrice?: number | string, taxRate?: number | string }} line
 */
async function fillLine(tool, line) {
  for (const [name, value] of Object.entries(line)) await tool.fill(`#line-rows tr:first-child [name="${name}"]`, value);
}

test('creates a quote from the form and says so', async () => {
  const tool = await open();
  assert.deepEqual(tool.errors, []);
  await tool.click('[data-tab="new-quote"]');
  await tool.fill('[name="customerName"]', 'Olivia Barnes');
  await tool.fill('[name="title"]', 'Heat pump service');
  await fillLine(tool, { description: 'Service visit', qty: 2, unitPrice: 180, taxRate: 15 });
  await tool.click('#create-quote');

  const call = tool.host.calls.at(-1);
  assert.equal(call?.method, 'quotes.create');
  assert.equal(call?.status, 'resolved', call?.error?.message);
  const [created] = tool.host.createdQuotes();
  assert.equal(created?.title, 'Heat pump service');
  assert.deepEqual(
    created?.lines.map((line) => [line.description, line.qty, line.unitPrice, line.taxRate]),
    [['Service visit', 2, 180, 0.15]], // the form takes percent, the bridge a fraction
  );
  assert.match(tool.text('#quote-created'), new RegExp(`^Quote ${created?.ref} was created, total 414\\.00\\.$`));
});

test('shows each problem the host finds, next to its field, and creates nothing', async () => {
  const tool = await open();
  await tool.click('[data-tab="new-quote"]');
  await tool.fill('[name="upsertByEmail"]', true);
  await fillLine(tool, { description: 'Service visit', qty: 0, unitPrice: '' });
  await tool.click('#create-quote');

  assert.equal(tool.host.calls.at(-1)?.error?.code, 'INVALID_ARGUMENT');
  assert.deepEqual(tool.host.createdQuotes(), []);
  const problems = [...tool.document.querySelectorAll('#quote-problems li')].map((item) => item.textContent ?? '');
  assert.equal(tool.text('#quote-problems p'), 'The quote was not created (INVALID_ARGUMENT): 3 things to fix, marked in the form.');
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems.find((text) => text.startsWith('customerEmail')) ?? '', /^customerEmail: /);
  assert.match(problems.find((text) => text.startsWith('Line 1, qty')) ?? '', /^Line 1, qty: /);
  // A field left empty is "required", never "got NaN".
  assert.equal(problems.find((text) => text.startsWith('Line 1, unitPrice')), 'Line 1, unitPrice: is required');
  assert.match(problems.find((text) => text.startsWith('Line 1, unitPrice')) ?? '', /^Line 1, unitPrice: /);
  const invalid = [...tool.document.querySelectorAll('[aria-invalid="true"]')].map((input) => input.getAttribute('name'));
  assert.deepEqual(invalid.sort(), ['customerEmail', 'qty', 'unitPrice']);
});

test('remembers the last tab in the tool settings', async () => {
  const first = await open();
  await first.click('[data-tab="jobs"]');
  assert.deepEqual(first.host.settings(), { preferences: { tab: 'jobs', pageSize: 10 } });

  const again = await open({ settings: first.host.settings() });
  assert.equal(again.$('[data-tab="jobs"]').getAttribute('aria-selected'), 'true');
  assert.match(again.text('#page-info'), /jobs$/);
});

test('remembers the page size in the tool settings, and lists that many rows', async () => {
  const first = await open();
  await first.fill('#page-size', '5');
  assert.deepEqual(first.host.settings(), { preferences: { tab: 'customers', pageSize: 5 } });
  assert.deepEqual(first.host.calls.at(-1)?.args, [{ page: 1, pageSize: 5 }]);
  assert.equal(first.document.querySelectorAll('#list-body tr').length, 5);

  const again = await open({ settings: first.host.settings() });
  assert.equal(/** @type {HTMLSelectElement} */ (again.$('#page-size')).value, '5');
  const listed = again.host.calls.find((call) => call.method === 'customers.list');
  assert.deepEqual(listed?.args, [{ page: 1, pageSize: 5 }]);
});
