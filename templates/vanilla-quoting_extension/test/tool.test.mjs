// Tests of the estimator against pipeline-tool's emulated host: the page in src/ is loaded as
// the platform would load it (manifest.json, the entry page, its scripts), with the same
// window.pipeline and sample data as `npm run dev`. Run them with `npm test`.
//
// The sample data is a kitchen business, so the SKUs and codes at the top of src/app.js exist
// there; its prices are the ones in the numbers below.

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

test('adds the default kitchen to the open quote, by section, with its totals', async () => {
  const tool = await open();
  assert.deepEqual(tool.errors, []);

  await tool.click('#send');
  // The host's answer first: if it refused the lines, its message says why.
  const call = tool.host.calls.at(-1);
  assert.equal(call?.method, 'quotes.addLines');
  assert.equal(call?.status, 'resolved', call?.error?.message);
  assert.deepEqual(tool.host.warnings, []);
  assert.equal(tool.text('#sent'), 'Added 7 lines to the quote. Save the quote to keep them.');

  // Sections, in the order the lines named them; Terms is declared with notes and no lines.
  const quote = tool.host.editorView();
  assert.deepEqual(
    quote.blocks.map((block) => [block.section?.name, block.section?.summaryOnly, block.totals.nett]),
    [
      ['Cabinetry', false, 6 * 365.5 + 4 * 298 + 10 * 14.95],
      ['Benchtop', false, 1692.6 + 180], // 4.2 m × 0.65 m of stone at 620, and its installation
      ['Site work', true, 10 * 38 + 235 + 150],
      ['Terms', false, 0],
    ],
  );

  // Groups: each linked product brings the task lines of its task sequence, right after it,
  // in its section and its group.
  const lines = tool.host.lines();
  const injected = lines.filter((line) => line.injectedFromLine !== null);
  assert.deepEqual(
    injected.map((line) => [line.description, lines.find((product) => product.lineNumber === line.injectedFromLine)?.workObjectCode]),
    [
      ['Installation', 'CAB-BASE-600'],
      ['Installation', 'CAB-WALL-600'],
      ['Site measure', 'BENCH-STONE-20'],
      ['Installation', 'BENCH-STONE-20'],
    ],
  );
  for (const line of injected) {
    const product = lines.find((candidate) => candidate.lineNumber === line.injectedFromLine);
    assert.equal(line.groupId, product?.groupId);
  }

  // Totals: nett, 15% tax, and the total, as the quote shows them.
  assert.deepEqual(quote.totals, { nett: 6172.1, tax: 925.82, total: 7097.92 });

  // The customer sees Site work as one row, and the Terms as notes.
  const preview = tool.host.customerPreview();
  assert.deepEqual(
    preview.blocks.map((block) => [block.kind, block.name]),
    [
      ['section', 'Cabinetry'],
      ['section', 'Benchtop'],
      ['summary', 'Site work'],
      ['notes', 'Terms'],
    ],
  );
});

test('sends what the form says: a laminate benchtop, no handles, no strip-out', async () => {
  const tool = await open();
  await tool.fill('[name="benchtop"]', 'laminate');
  await tool.fill('[name="benchtopMetres"]', 3.5);
  await tool.fill('[name="handles"]', false);
  await tool.fill('[name="stripOut"]', false);
  await tool.click('#send');

  const sent = tool.host.lines().filter((line) => line.injectedFromLine === null);
  assert.deepEqual(
    sent.map((line) => [line.workObjectCode, line.qty]),
    [
      ['CAB-BASE-600', 6],
      ['CAB-WALL-600', 4],
      ['BENCH-LAM-3000', 2], // 3.5 m in 3 m lengths
      ['CHECK-MEASURE', 1],
    ],
  );
});

test('on an SDK 2.2.0 host, leaves out the Terms section and says why', async () => {
  const tool = await open({ sdkVersion: '2.2.0' });
  assert.match(tool.text('#notices'), /older than 2\.5\.0/);
  await tool.click('#send');
  assert.deepEqual(
    tool.host.editorView().blocks.map((block) => block.section?.name),
    ['Cabinetry', 'Benchtop', 'Site work'],
  );
});
