import { describe, expect, it, vi } from 'vitest';
import { createTestHost, loadTool } from '../../src/testing/index.js';
import { writeFolder } from '../helpers/bundles.js';

// A project without jsdom: the page cannot be loaded, and the error says how to fix that.
vi.mock('jsdom', () => {
  throw new Error("Cannot find package 'jsdom'");
});

describe('the testing kit without jsdom', () => {
  it('still gives a window.pipeline', async () => {
    const host = await createTestHost();
    expect((await host.pipeline.context.get()).tenantName).toEqual(expect.any(String));
  });

  it('refuses to load a page, saying what to install', async () => {
    const folder = writeFolder({ 'manifest.json': '{"name":"T","type":"standalone","entry":"index.html"}', 'index.html': '<p>x</p>' });
    await expect(loadTool(folder)).rejects.toThrow('loadTool needs jsdom to build the page, and it is not installed: run npm install --save-dev jsdom');
  });
});
