import { expect } from 'vitest';
import { createTestHost } from '../../src/testing/index.js';

/*
 * A tool's script run in the test's own DOM (vitest's jsdom or happy-dom environment), against
 * the window.pipeline the kit installs there. Shared by one test file per environment.
 */

const TOOL_SCRIPT = `
document.getElementById('send').addEventListener('click', async () => {
  const status = document.getElementById('status');
  try {
    await window.pipeline.quotes.addLines([{ description: 'Tap', qty: 2, unitPrice: 45, taxRate: 0.15, section: 'Plumbing' }]);
    status.textContent = 'added';
  } catch (error) {
    status.textContent = error.code + (error instanceof Error ? ' (an Error)' : '');
  }
});
`;

export async function runToolInTestDom(toolType: 'quoting_extension' | 'standalone'): Promise<void> {
  const host = await createTestHost({ manifest: { name: 'Env Test', type: toolType } });
  host.install();
  try {
    document.body.innerHTML = '<button id="send" type="button">Add</button><p id="status"></p>';
    // Indirect eval: the script runs at global scope, as a classic script would.
    (0, eval)(TOOL_SCRIPT);
    (document.getElementById('send') as HTMLButtonElement).click();
    await host.settled();
    if (toolType === 'quoting_extension') {
      expect(document.getElementById('status')!.textContent).toBe('added');
      expect(host.editorView().blocks).toEqual([expect.objectContaining({ section: expect.objectContaining({ name: 'Plumbing' }), totals: { nett: 90, tax: 13.5, total: 103.5 } })]);
    } else {
      expect(document.getElementById('status')!.textContent).toBe('TOOL_TYPE_NOT_ALLOWED (an Error)');
      expect(host.calls).toEqual([expect.objectContaining({ method: 'quotes.addLines', status: 'rejected' })]);
    }
  } finally {
    host.close();
    document.body.innerHTML = '';
  }
  expect((window as { pipeline?: unknown }).pipeline).toBeUndefined();
}
