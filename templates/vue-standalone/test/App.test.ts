// Tests of the tool's components against pipeline-tool's emulated host: the same window.pipeline,
// sample data and rules as `npm run dev`, in jsdom. Run them with `npm test`.

import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/vue';
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

/** Renders the tool against a fresh host, once its first page of customers has come. */
async function open(options: TestHostOptions = {}): Promise<TestHost> {
  host = await createTestHost({ manifest: MANIFEST, ...options });
  host.install();
  render(App);
  await waitFor(() => expect(screen.getByTestId('page-info').textContent).not.toBe(''));
  return host;
}

it('creates a quote from the form and says so', async () => {
  const host = await open();
  await fireEvent.click(screen.getByRole('tab', { name: 'New quote' }));
  await fireEvent.update(screen.getByLabelText('Name'), 'Olivia Barnes');
  await fireEvent.update(screen.getByLabelText('Quote title'), 'Heat pump service');
  await fireEvent.update(screen.getByLabelText('Description'), 'Service visit');
  await fireEvent.update(screen.getByLabelText('Quantity'), '2');
  await fireEvent.update(screen.getByLabelText('Unit price'), '180');
  await fireEvent.update(screen.getByLabelText('Tax rate in percent'), '15');
  await fireEvent.click(screen.getByRole('button', { name: 'Create quote' }));

  const done = await screen.findByRole('status');
  const call = host.calls.at(-1);
  expect(call?.method).toBe('quotes.create');
  expect(call?.status, call?.error?.message).toBe('resolved');
  const [created] = host.createdQuotes();
  expect(created?.title).toBe('Heat pump service');
  // The form takes percent, the bridge a fraction.
  expect(created?.lines.map((line) => [line.description, line.qty, line.unitPrice, line.taxRate])).toEqual([['Service visit', 2, 180, 0.15]]);
  expect(done.textContent).toBe(`Quote ${created?.ref} was created, total 414.00.`);
});

it('shows each problem the host finds, next to its field, and creates nothing', async () => {
  const host = await open();
  await fireEvent.click(screen.getByRole('tab', { name: 'New quote' }));
  await fireEvent.update(screen.getByLabelText('Find the customer by e-mail, or create them'));
  await fireEvent.update(screen.getByLabelText('Description'), 'Service visit');
  await fireEvent.update(screen.getByLabelText('Quantity'), '0');
  await fireEvent.update(screen.getByLabelText('Unit price'), '');
  await fireEvent.click(screen.getByRole('button', { name: 'Create quote' }));

  const alert = await screen.findByRole('alert');
  expect(host.calls.at(-1)?.error?.code).toBe('INVALID_ARGUMENT');
  expect(host.createdQuotes()).toEqual([]);
  expect(alert.querySelector('p')?.textContent).toBe('The quote was not created: (INVALID_ARGUMENT)');
  const problems = within(alert).getAllByRole('listitem').map((item) => item.textContent ?? '');
  expect(problems).toHaveLength(3);
  expect(problems.some((text) => text.startsWith('customerEmail: '))).toBe(true);
  expect(problems.some((text) => text.startsWith('Line 1, qty: '))).toBe(true);
  expect(problems.some((text) => text.startsWith('Line 1, unitPrice: '))).toBe(true);
  const invalid = [...document.querySelectorAll('[aria-invalid="true"]')].map((input) => input.getAttribute('name'));
  expect(invalid.sort()).toEqual(['customerEmail', 'qty', 'unitPrice']);
});

it('remembers the last tab in the tool settings', async () => {
  const first = await open();
  await fireEvent.click(screen.getByRole('tab', { name: 'Jobs' }));
  await waitFor(() => expect(screen.getByTestId('page-info').textContent).toMatch(/jobs$/));
  await first.settled();
  expect(first.settings()).toEqual({ preferences: { tab: 'jobs', pageSize: 10 } });
  const stored = first.settings();
  cleanup();
  first.close();

  await open({ settings: stored });
  expect(screen.getByRole('tab', { name: 'Jobs' }).getAttribute('aria-selected')).toBe('true');
  expect(screen.getByTestId('page-info').textContent).toMatch(/jobs$/);
});
