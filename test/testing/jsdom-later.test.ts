import { describe, expect, it, vi } from 'vitest';
import { loadTool } from '../../src/testing/index.js';
import { writeFolder } from '../helpers/bundles.js';

// jsdom missing at first, then installed, in one test process (a watch-mode run, say): the
// failure is not remembered, and the next loadTool loads the page.
let installed = false;
vi.mock('jsdom', async (importOriginal) => {
  if (!installed) throw new Error("Cannot find package 'jsdom'");
  return importOriginal();
});

describe('jsdom installed while the tests run', () => {
  it('is loaded by the next loadTool, after one that failed without it', async () => {
    const folder = writeFolder({ 'manifest.json': '{"name":"T","type":"standalone","entry":"index.html"}', 'index.html': '<p id="x">hi</p>' });
    await expect(loadTool(folder)).rejects.toThrow('loadTool needs jsdom to build the page, and it is not installed: run npm install --save-dev jsdom');
    installed = true;
    const tool = await loadTool(folder);
    expect(tool.text('#x')).toBe('hi');
    tool.close();
  });
});
