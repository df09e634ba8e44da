import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServedModule } from '../../src/core/served/check-module.js';
import pipeline from '../../src/vite/index.js';
import { SETTLE_MS, waitFor } from '../dev/helpers.js';
import { positionOf } from '../helpers/built-app.js';
import { captureLogger, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';
import type { Findings } from '../../src/dev/findings.js';

/*
 * While Vite serves, each module the tool loads is checked by validate's code rules on the code
 * Vite serves, and placed through its map at the author's line: the host page's state and the
 * terminal have the findings without a build, and a save updates them.
 */

const APP = `import { useEffect, useState } from 'react';

export function App() {
  const [count, setCount] = useState(0);
  useEffect(() => {
    // Kept across reloads.
    localStorage.setItem('count', String(count));
  }, [count]);
  return <button id="more" onClick={() => setCount((n) => n + 1)}>Count: {count}</button>;
}
`;

const MAIN = `import { createRoot } from 'react-dom/client';
import { App } from './App';

createRoot(document.getElementById('root')!).render(<App />);
`;

interface StateFindings {
  ok: boolean;
  message?: string;
  report?: { problems: { ruleId: string }[] };
  served?: { modules: number; ruleIds: string[]; problems: { ruleId: string; severity: string; file?: string; line?: number; column?: number; served?: { file: string; line: number; column: number } }[] };
}

describe('pipeline-tool/vite checks each module as Vite serves it', () => {
  let root: string;
  let logger: CapturedLogger;
  let server: ViteDevServer;
  let hostUrl: string;

  beforeAll(async () => {
    root = viteProject({
      'public/manifest.json': JSON.stringify(MANIFEST),
      'index.html': '<!doctype html>\n<html><head><meta charset="utf-8"><title>t</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
      'src/main.tsx': MAIN,
      'src/App.tsx': APP,
    });
    logger = captureLogger();
    server = await createServer({ root, configFile: false, clearScreen: false, customLogger: logger, plugins: [react(), pipeline({ port: 0 })], server: { port: 0 }, optimizeDeps: { noDiscovery: true, include: [] } });
    await server.listen();
    server.printUrls();
    hostUrl = await waitFor(() => /Open:\s+(\S+)/.exec(logger.text('info'))?.[1], SETTLE_MS, 'the host page address');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const findings = async (): Promise<StateFindings> => ((await (await fetch(new URL('/__pipeline/state', hostUrl))).json()) as { findings: StateFindings }).findings;
  const served = (file: string) => server.environments['client']!.transformRequest(`/${file}`);

  it('finds localStorage in a served component, at its line in src/App.tsx, before any build', async () => {
    await served('src/main.tsx');
    await served('src/App.tsx');
    const found = await waitFor(async () => (await findings()).served?.problems.find((problem) => problem.ruleId === 'browser-storage'), SETTLE_MS, 'the served finding');
    const { line, column } = positionOf(APP, 'localStorage');
    expect(found).toMatchObject({ file: 'src/App.tsx', line, column, severity: 'warning' });
    // Where it sits in the code Vite served: the same module, transformed.
    expect(found.served?.file).toBe('src/App.tsx');
    expect(found.served).not.toEqual({ file: 'src/App.tsx', line, column });
    const state = await findings();
    expect(state.served?.modules).toBeGreaterThanOrEqual(2);
    expect(state.served?.ruleIds).toContain('browser-storage');
    expect(state.served?.ruleIds).not.toContain('reference-missing');
    // No build yet: the build's part says so, apart from what is checked as served.
    expect(state.ok).toBe(false);
    await waitFor(() => logger.text('warn').includes('browser-storage'), SETTLE_MS, 'the terminal to hear of it');
    expect(logger.text('warn')).toMatch(new RegExp(`\\[pipeline-tool\\] src/App\\.tsx:${line}:${column}: localStorage is not dependable .*\\(browser-storage, served: src/App\\.tsx:\\d+:\\d+\\)`));
  });

  it('follows a save: a new mistake appears at its line, a fixed one goes away', async () => {
    const file = path.join(root, 'src/App.tsx');
    const next = readFileSync(file, 'utf8')
      .replace("    localStorage.setItem('count', String(count));\n", '')
      .replace('  return <button', "  const ask = () => alert('Saved ' + count);\n  return <button onDoubleClick={ask}");
    writeFileSync(file, next);
    const moduleNode = await server.environments['client']!.moduleGraph.getModuleByUrl('/src/App.tsx');
    server.environments['client']!.moduleGraph.invalidateModule(moduleNode!);
    await served('src/App.tsx');
    const state = await waitFor(
      async () => {
        const now = await findings();
        return now.served?.problems.some((problem) => problem.ruleId === 'dialog-call') ? now : undefined;
      },
      SETTLE_MS,
      'the new finding',
    );
    const { line, column } = positionOf(next, 'alert');
    expect(state.served?.problems.filter((problem) => problem.file === 'src/App.tsx').map(({ ruleId, line: at, column: col }) => ({ ruleId, line: at, column: col }))).toEqual([{ ruleId: 'dialog-call', line, column }]);
    await waitFor(() => logger.text('info').includes('browser-storage is gone'), SETTLE_MS, 'the terminal to hear that the finding went');
  });

  it("puts an error in Vite's error overlay, at the author's file and line", async () => {
    const environment = server.environments['client']!;
    const sent: { type: string; err?: { plugin?: string; message: string; loc?: { file?: string; line: number; column: number } } }[] = [];
    const send = environment.hot.send.bind(environment.hot);
    environment.hot.send = ((payload: (typeof sent)[number]) => {
      sent.push(payload);
      return send(payload as never);
    }) as typeof environment.hot.send;
    const code = "export function refresh() {\n  return (window as any).pipeline.quotes.reload();\n}\n";
    writeFileSync(path.join(root, 'src/refresh.ts'), code);
    await served('src/refresh.ts');
    const overlay = await waitFor(() => sent.find((payload) => payload.type === 'error' && payload.err?.plugin === 'pipeline-tool'), SETTLE_MS, 'the error overlay');
    expect(overlay.err?.message).toContain('(bridge-unknown-method)');
    // Placed at the called method: a bridge finding is looked up in the map at the call.
    const { line, column } = positionOf(code, 'reload');
    expect(overlay.err?.loc).toEqual({ file: path.join(root, 'src/refresh.ts'), line, column });
    expect(logger.text('error')).toMatch(new RegExp(`\\[pipeline-tool\\] src/refresh\\.ts:${line}:${column}: .*\\(bridge-unknown-method, served: src/refresh\\.ts:`));
  });
});

describe('checkServedModule', () => {
  it('checks a module with the served rules only, leaving references and syntax to the build', async () => {
    const root = viteProject({ 'src/a.ts': '' });
    const code = "import x from '/missing.js';\nalert(x);\nconst y = ;\n";
    const problems = await checkServedModule({ path: 'src/a.ts', code }, { folder: root, root });
    expect(problems.map((problem) => [problem.ruleId, problem.file, problem.line])).toEqual([['dialog-call', 'src/a.ts', 2]]);
  });

  it('uses the manifest for the rules that depend on the tool type, and the project rule settings', async () => {
    const root = viteProject({ 'src/a.ts': '' });
    const code = "window.pipeline.quotes.addLines([]);\nalert('x');\n";
    const manifest = Buffer.from(JSON.stringify({ ...MANIFEST, type: 'standalone' }));
    const problems = await checkServedModule({ path: 'src/a.ts', code }, { folder: root, root, manifest, rules: { 'dialog-call': 'off' } });
    expect(problems.map((problem) => problem.ruleId)).toEqual(['bridge-tool-type']);
  });
});

describe('withServedFindings', () => {
  it("leaves out the build's findings of the rules checked as served, and keeps what waits for a build", async () => {
    const { withServedFindings } = await import('../../src/dev/findings.js');
    const report = {
      bundle: 'dist',
      kind: 'folder' as const,
      ok: false,
      errorCount: 1,
      warningCount: 1,
      problems: [
        { ruleId: 'browser-storage', severity: 'warning' as const, message: 'old', file: 'src/App.tsx', line: 3 },
        { ruleId: 'reference-missing', severity: 'error' as const, message: 'gone', file: 'index.html', line: 1 },
      ],
    };
    // The sizes ride along untouched.
    const sized = { limits: { zipped: { used: 1, limit: 10_000_000 }, unpacked: { used: 1, limit: 50_000_000 }, files: { used: 1, limit: 200 } }, sizeLine: '1 byte zipped' } as unknown as Pick<Extract<Findings, { ok: true }>, 'limits' | 'sizeLine'>;
    expect(withServedFindings({ ok: true, report, ...sized }, null)).toEqual({ ok: true, report, ...sized });
    const merged = withServedFindings({ ok: true, report, ...sized }, { problems: [], modules: 3 });
    expect(merged.ok && merged.sizeLine).toBe('1 byte zipped');
    expect(merged.ok && merged.report.problems.map((problem) => problem.ruleId)).toEqual(['reference-missing']);
    expect(merged.ok && [merged.report.errorCount, merged.report.warningCount]).toEqual([1, 0]);
    expect(merged.served?.modules).toBe(3);
  });
});
