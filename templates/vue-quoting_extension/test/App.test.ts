// Tests of the estimator's components against pipeline-tool's emulated host: the same
// window.pipeline, sample data and rules as `npm run dev`, in jsdom. Run them with `npm test`.
//
// The sample data is a kitchen business, so the SKUs and codes in src/lib/catalogue.ts exist
// there; its prices are the ones in the numbers below.

import { cleanup, configure, fireEvent, render, screen } from '@testing-library/vue';
import { createTestHost, type TestHost, type TestHostOptions } from 'pipeline-tool/testing';
import { afterEach, expect, it } from 'vitest';
import App from '../src/App.vue';

/** The manifest the build ships, so the host knows the tool's name and type (vitest runs in the project folder). */
const MANIFEST = 'public/manifest.json';

// The host answers at once, but a busy CI machine can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 10_000 });

let host: TestHost | undefined;
afterEach(() => {
  cleanup();
  host?.close();
});

/** Renders the estimator against a fresh host, once the catalogue has loaded. */
async function open(options: TestHostOptions = {}): Promise<TestHost> {
  host = await createTestHost({ manifest: MANIFEST, ...options });
  host.install();
  render(App);
  await screen.findByRole('button', { name: 'Add to quote' });
  return host;
}

it('adds the default kitchen to the open quote, by section, with its totals', async () => {
  const host = await open();
  await fireEvent.click(screen.getByRole('button', { name: 'Add to quote' }));
  const done = await screen.findByRole('status');

  // The host's answer first: if it refused the lines, its message says why.
  const call = host.calls.at(-1);
  expect(call?.method).toBe('quotes.addLines');
  expect(call?.status, call?.error?.message).toBe('resolved');
  expect(host.warnings).toEqual([]);
  expect(done.textContent).toBe('Added 7 lines to the quote. Save the quote to keep them.');

  // Sections, in the order the lines named them; Terms is declared with notes and no lines.
  const quote = host.editorView();
  expect(quote.blocks.map((block) => [block.section?.name, block.section?.summaryOnly, block.totals.nett])).toEqual([
    ['Cabinetry', false, 6 * 365.5 + 4 * 298 + 10 * 14.95],
    ['Benchtop', false, 1692.6 + 180], // 4.2 m × 0.65 m of stone at 620, and its installation
    ['Site work', true, 10 * 38 + 235 + 150],
    ['Terms', false, 0],
  ]);
  // Each linked product brings the task lines of its task sequence, in its section and group.
  const lines = host.lines();
  const injected = lines.filter((line) => line.injectedFromLine !== null);
  expect(injected.map((line) => [line.description, lines.find((product) => product.lineNumber === line.injectedFromLine)?.workObjectCode])).toEqual([
    ['Installation', 'CAB-BASE-600'],
    ['Installation', 'CAB-WALL-600'],
    ['Site measure', 'BENCH-STONE-20'],
    ['Installation', 'BENCH-STONE-20'],
  ]);
  expect(quote.totals).toEqual({ nett: 6172.1, tax: 925.82, total: 7097.92 });
  // The customer sees Site work as one row, and the Terms as notes.
  expect(host.customerPreview().blocks.map((block) => [block.kind, block.name])).toEqual([
    ['section', 'Cabinetry'],
    ['section', 'Benchtop'],
    ['summary', 'Site work'],
    ['notes', 'Terms'],
  ]);
});

it('sends what the form says: a laminate benchtop, no handles, no strip-out', async () => {
  const host = await open();
  await fireEvent.update(screen.getByLabelText('Material'), 'laminate');
  await fireEvent.update(screen.getByLabelText('Length in metres'), '3.5');
  await fireEvent.click(screen.getByLabelText('A bar handle on every cabinet'));
  await fireEvent.click(screen.getByLabelText('Strip out and dispose of the old kitchen'));
  await fireEvent.click(screen.getByRole('button', { name: 'Add to quote' }));
  await screen.findByRole('status');

  const sent = host.lines().filter((line) => line.injectedFromLine === null);
  expect(sent.map((line) => [line.workObjectCode, line.qty])).toEqual([
    ['CAB-BASE-600', 6],
    ['CAB-WALL-600', 4],
    ['BENCH-LAM-3000', 2], // 3.5 m in 3 m lengths
    ['CHECK-MEASURE', 1],
  ]);
});

it('on an SDK 2.2.0 host, leaves out the Terms section and says why', async () => {
  const host = await open({ sdkVersion: '2.2.0' });
  expect(screen.getByRole('list', { name: 'Notices' }).textContent).toMatch(/older than 2\.5\.0/);
  await fireEvent.click(screen.getByRole('button', { name: 'Add to quote' }));
  await screen.findByRole('status');
  expect(host.editorView().blocks.map((block) => block.section?.name)).toEqual(['Cabinetry', 'Benchtop', 'Site work']);
});
