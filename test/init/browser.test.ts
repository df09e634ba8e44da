import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeAnswers, initProject, type ToolType } from '../../src/core/init/index.js';
import type * as PlatformExports from '../../src/platform/index.js';
import { launchChromium, requireChromium } from '../dev/browser.js';

/*
 * The scaffolded tools, run for real: Chromium loads each one in a sandboxed iframe (opaque
 * origin, allow-scripts only, as the host does) and its window.pipeline is answered by the
 * platform model that `pipeline-tool dev` is built on.
 */

type PlatformModule = typeof PlatformExports;
const platformModule: PlatformModule = await import('../../src/platform/index.js');
// Skipped only when Chromium is missing outside CI; under CI=true that is a failing test instead.
const available = requireChromium();

type Platform = ReturnType<PlatformModule['createPlatform']>;
type Fixtures = NonNullable<Parameters<PlatformModule['createPlatform']>[0]['fixtures']>;
type SettingsStore = NonNullable<Parameters<PlatformModule['createPlatform']>[0]['settingsStore']>;

interface OpenOptions {
  sdkVersion?: string;
  fixtures?: Fixtures;
  settingsStore?: SettingsStore;
  /** False to open the tool with no window.pipeline at all. */
  bridge?: boolean;
}

describe.skipIf(!available)('the scaffolded tools in a browser', () => {
  let browser: Browser;
  const projects = new Map<ToolType, string>();

  beforeAll(async () => {
    browser = await launchChromium();
    for (const type of ['standalone', 'quoting_extension'] as const) {
      // Made here rather than with tempDir(), which empties itself after every test.
      const directory = await mkdtemp(path.join(tmpdir(), `pipeline-init-browser-${type}-`));
      await initProject({ directory, answers: completeAnswers({ type }, 'tool') });
      projects.set(type, directory);
    }
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([...projects.values()].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function openTool(type: ToolType, options: OpenOptions = {}): Promise<{ page: Page; tool: Frame; platform: Platform }> {
    const platform = platformModule.createPlatform({
      toolId: 'tool',
      toolType: type,
      ...(options.sdkVersion ? { sdkVersion: options.sdkVersion } : {}),
      ...(options.fixtures ? { fixtures: options.fixtures } : {}),
      ...(options.settingsStore ? { settingsStore: options.settingsStore } : {}),
    });
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const root = path.join(projects.get(type)!, 'src');
    await page.route('http://host.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<iframe sandbox="allow-scripts" src="http://tool.test/index.html" width="420" height="900"></iframe>' }),
    );
    await page.route('http://tool.test/**', async (route) => {
      const file = path.join(root, new URL(route.request().url()).pathname);
      const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
      await route.fulfill({ body: await readFile(file), contentType: types[path.extname(file)] ?? 'application/octet-stream' });
    });
    if (options.bridge !== false) {
      await page.exposeBinding('__pipelineCall', async (_source, method: string, args: unknown[]) => {
        try {
          return { ok: true, value: await platform.call(method, args) };
        } catch (error) {
          const e = error as { message: string; code?: string; details?: unknown };
          return { ok: false, error: { message: e.message, code: e.code, details: e.details } };
        }
      });
      await page.addInitScript(
        ({ version, methods }) => {
          if (location.hostname !== 'tool.test') return;
          const call = (window as unknown as { __pipelineCall: (m: string, a: unknown[]) => Promise<{ ok: boolean; value?: unknown; error?: object }> })
            .__pipelineCall;
          const sdk: Record<string, unknown> = { version };
          for (const method of methods) {
            const [space, member] = method.split('.') as [string, string];
            const namespace = (sdk[space] ??= {}) as Record<string, unknown>;
            namespace[member] = async (...args: unknown[]) => {
              const answer = await call(method, args);
              if (answer.ok) return answer.value;
              throw Object.assign(new Error(), answer.error);
            };
          }
          (window as unknown as { pipeline: unknown }).pipeline = sdk;
        },
        { version: platform.sdkVersion, methods: [...platform.methods] },
      );
    }
    await page.goto('http://host.test/');
    const tool = page.frames().find((frame) => frame.url().startsWith('http://tool.test/'));
    if (!tool) throw new Error('the tool frame did not load');
    await tool.waitForLoadState();
    expect(errors).toEqual([]);
    return { page, tool, platform };
  }

  const visible = (tool: Frame, selector: string) => tool.locator(selector).isVisible();

  describe('standalone', () => {
    it('says how to run it when there is no host', async () => {
      const { tool } = await openTool('standalone', { bridge: false });
      await tool.locator('#outside-host').waitFor();
      expect(await visible(tool, '#app')).toBe(false);
    });

    it('lists with paging, and keeps tab and page size in settings', async () => {
      const settingsStore = platformModule.createMemorySettingsStore();
      const { tool } = await openTool('standalone', { settingsStore });
      await tool.locator('#app').waitFor();
      const rows = tool.locator('#list-body tr');
      await expect.poll(() => rows.count()).toBe(8);
      expect(await tool.locator('#page-next').isDisabled()).toBe(true);

      await tool.locator('#page-size').selectOption('5');
      await expect.poll(() => rows.count()).toBe(5);
      await tool.locator('#page-next').click();
      await expect.poll(() => rows.count()).toBe(3);
      expect(await tool.locator('#page-next').isDisabled()).toBe(true);

      await tool.locator('[data-tab="quotes"]').click();
      await expect.poll(() => tool.locator('#list-body').textContent()).toContain('Q-1041');
      await expect.poll(() => settingsStore.entries().map((e) => e.value)).toContainEqual({ tab: 'quotes', pageSize: 5 });

      // Opened again, it starts where the user left it.
      const again = await openTool('standalone', { settingsStore });
      await expect.poll(() => again.tool.locator('[data-tab="quotes"]').getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => again.tool.locator('#list-body tr').count()).toBe(5);
    });

    it('shows the host’s validation failures next to the form, then creates the quote', async () => {
      const { tool, platform } = await openTool('standalone');
      await tool.locator('[data-tab="new-quote"]').click();
      await tool.locator('input[name="upsertByEmail"]').check();
      await tool.locator('input[name="qty"]').fill('0');
      await tool.locator('input[name="unitPrice"]').fill('120');
      await tool.locator('#create-quote').click();
      await tool.locator('#quote-problems').waitFor();
      expect(await tool.locator('#quote-problems').textContent()).toContain('INVALID_ARGUMENT');
      expect(await tool.locator('input[name="qty"][aria-invalid="true"]').count()).toBe(1);
      expect(await tool.locator('input[name="customerEmail"][aria-invalid="true"]').count()).toBe(1);
      expect(platform.createdQuotes()).toEqual([]);

      await tool.locator('input[name="customerName"]').fill('Ana <b>Silva</b>');
      await tool.locator('input[name="customerEmail"]').fill('ana@example.com');
      await tool.locator('input[name="description"]').fill('Call-out');
      await tool.locator('input[name="qty"]').fill('2');
      await tool.locator('#create-quote').click();
      await tool.locator('#quote-created').waitFor();
      expect(await visible(tool, '#quote-problems')).toBe(false);
      const [quote] = platform.createdQuotes();
      expect(quote).toMatchObject({ customerName: 'Ana <b>Silva</b>', customerEmail: 'ana@example.com' });
      expect(quote?.lines).toEqual([expect.objectContaining({ description: 'Call-out', qty: 2, unitPrice: 120, taxRate: 0.15 })]);
    });

    it('works on a host older than settings (SDK 2.2.0)', async () => {
      const { tool } = await openTool('standalone', { sdkVersion: '2.2.0' });
      await tool.locator('#app').waitFor();
      await tool.locator('[data-tab="jobs"]').click();
      await expect.poll(() => tool.locator('#list-body').textContent()).toContain('J-2031');
    });
  });

  describe('quoting_extension', () => {
    it('says how to run it when there is no host', async () => {
      const { tool } = await openTool('quoting_extension', { bridge: false });
      await tool.locator('#outside-host').waitFor();
      expect(await visible(tool, '#app')).toBe(false);
    });

    it('adds linked lines in sections, with a summary-only section and a declared one', async () => {
      const { tool, platform } = await openTool('quoting_extension');
      await tool.locator('#app').waitFor();
      expect(await tool.locator('tr[data-line]').count()).toBe(7);
      expect(await tool.locator('#notices li').count()).toBe(0);
      await tool.locator('#send').click();
      await tool.locator('#sent').waitFor();
      expect(await tool.locator('#send').isDisabled()).toBe(true);

      const view = platform.editorView();
      const sections = view.blocks.map((block) => block.section && { name: block.section.name, summaryOnly: block.section.summaryOnly, notes: Boolean(block.section.notes) });
      expect(sections).toEqual([
        { name: 'Cabinetry', summaryOnly: false, notes: true },
        { name: 'Benchtop', summaryOnly: false, notes: true },
        { name: 'Site work', summaryOnly: true, notes: true },
        { name: 'Terms', summaryOnly: false, notes: true },
      ]);
      const lines = view.blocks.flatMap((block) => block.lines);
      const sent = lines.filter((line) => line.injectedFromLine === null);
      expect(sent).toHaveLength(7);
      // Every SKU and code resolved, so every line is linked; cabinets brought their task lines.
      expect(sent.every((line) => line.linkedItemId !== null)).toBe(true);
      expect(sent.map((line) => line.lineType)).toEqual(['product', 'product', 'product', 'product', 'task', 'jobcost', 'jobcost']);
      expect(lines.length).toBeGreaterThan(sent.length);

      // A change to the kitchen allows sending again.
      await tool.locator('input[name="wallCabinets"]').fill('2');
      expect(await tool.locator('#send').isDisabled()).toBe(false);
    });

    it('shows a rejected batch next to the line concerned, and adds nothing', async () => {
      const base = platformModule.DEFAULT_FIXTURES;
      const fixtures: Fixtures = {
        ...base,
        products: base.products.map((p) => (p.sku === 'HANDLE-BAR-160' ? { ...p, price: -1 } : p)),
      };
      const { tool, platform } = await openTool('quoting_extension', { fixtures });
      await tool.locator('#app').waitFor();
      await tool.locator('#send').click();
      await tool.locator('#send-problems').waitFor();
      expect(await tool.locator('#send-problems').textContent()).toContain('BATCH_REJECTED');
      // The handles are the third line (index 2).
      expect(await tool.locator('tr.rejected').getAttribute('data-line')).toBe('2');
      expect(await tool.locator('tr[data-line="2"] + tr.line-problem').count()).toBe(1);
      expect(platform.editorView().blocks.flatMap((block) => block.lines)).toEqual([]);
      expect(await tool.locator('#send').isDisabled()).toBe(false);
    });

    it('leaves the declared section out on SDK 2.4.0, and still adds its lines', async () => {
      const { tool, platform } = await openTool('quoting_extension', { sdkVersion: '2.4.0' });
      await tool.locator('#app').waitFor();
      expect(await tool.locator('#notices li').count()).toBe(1);
      await tool.locator('#send').click();
      await tool.locator('#sent').waitFor();
      const names = platform.editorView().blocks.map((block) => block.section?.name);
      expect(names).toEqual(['Cabinetry', 'Benchtop', 'Site work']);
    });

    it('sends job costs ad hoc on SDK 2.1.0, which has no job cost templates', async () => {
      const { tool, platform } = await openTool('quoting_extension', { sdkVersion: '2.1.0' });
      await tool.locator('#app').waitFor();
      await tool.locator('#send').click();
      await tool.locator('#sent').waitFor();
      const jobCosts = platform
        .editorView()
        .blocks.flatMap((block) => block.lines)
        .filter((line) => line.lineType === 'jobcost');
      expect(jobCosts).toHaveLength(2);
      expect(jobCosts.every((line) => line.linkedItemId === null)).toBe(true);
    });
  });
});
