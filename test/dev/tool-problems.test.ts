import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { createReportLimiter, describeToolProblem, readToolReport, REPORTS_PER_SECOND } from '../../src/dev/tool-problems.js';
import { tempDir } from '../helpers/bundles.js';
import { callBridge, postFromHostPage, QUOTING_MANIFEST, readState, sendRequest, SETTLE_MS, startTestServer, waitFor, writeTool } from './helpers.js';

/*
 * What the server itself tells the author about the tool: missing files, a missing entry page,
 * a manifest that breaks while dev runs, and the frame's reports passed on by the host page.
 */

type Logged = [level: string, message: string];

async function startLogged(root: string, watch = false): Promise<{ server: DevServer; logged: Logged[] }> {
  const logged: Logged[] = [];
  const server = await startTestServer({ root, watch, onLog: (level, message) => logged.push([level, message]) });
  return { server, logged };
}

const toolFile = (server: DevServer, file: string) =>
  sendRequest(server.toolPort, { path: `${new URL(server.toolUrl).pathname}${file}`, headers: { Host: `127.0.0.1:${server.toolPort}` } });

describe("the tool's missing files", () => {
  it('answer 404 with a "did you mean", logged once in a burst, without the token', async () => {
    const { server, logged } = await startLogged(writeTool(undefined, { 'img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' }));
    const response = await toolFile(server, 'img/logo.svc');
    expect(response.status).toBe(404);
    expect(response.body).toBe('The tool asked for img/logo.svc, which is not in the folder. Did you mean img/logo.svg?');
    await toolFile(server, 'img/logo.svc');
    expect((await toolFile(server, 'lib/x.js')).body).toBe('The tool asked for lib/x.js, which is not in the folder. There is no folder lib/.');
    expect(logged).toEqual([
      ['error', 'tool: file not found (404) at img/logo.svc: The tool asked for img/logo.svc, which is not in the folder. Did you mean img/logo.svg?'],
      ['error', 'tool: file not found (404) at lib/x.js: The tool asked for lib/x.js, which is not in the folder. There is no folder lib/.'],
    ]);
    expect(JSON.stringify(logged)).not.toContain(new URL(server.toolUrl).pathname.split('/')[2]);
  });

  it('a link out of the tool folder, or to nothing, is said to be one, never "did you mean" its own name', async () => {
    const root = writeTool(undefined, { 'vendor.jss': '1;' });
    const outside = path.join(tempDir(), 'secret.js');
    writeFileSync(outside, '1;');
    symlinkSync(outside, path.join(root, 'vendor.js'));
    symlinkSync(path.join(root, 'gone.js'), path.join(root, 'dangling.js'));
    const { server } = await startLogged(root);
    const out = await toolFile(server, 'vendor.js');
    expect(out.status).toBe(404);
    expect(out.body).toBe('The tool asked for vendor.js, a link that leads out of the tool folder; only files inside it are served. Copy the file into the folder.');
    expect((await toolFile(server, 'dangling.js')).body).toBe('The tool asked for dangling.js, a link to a file that does not exist.');
  });

  it('an entry page that is not there: the frame, the page and the terminal say what the manifest names and what is there', async () => {
    const root = writeTool({ ...QUOTING_MANIFEST, entry: 'index.htm' }, { 'about.html': '<p>about</p>' });
    const { server, logged } = await startLogged(root);
    const expected = 'manifest.json names the entry page "index.htm", which is not in the folder. Did you mean "index.html"? HTML files at the top of the folder: about.html, index.html.';
    const response = await toolFile(server, 'index.htm');
    expect(response.status).toBe(404);
    expect(response.body).toBe(expected);
    expect((await readState(server))['alerts']).toEqual([expected]);
    expect(logged[0]).toEqual(['error', expected]);
  });
});

describe('an entry page that appears while dev runs', () => {
  it('clears the alert and says so in the terminal', async () => {
    const root = writeTool({ ...QUOTING_MANIFEST, entry: 'main.html' });
    const { server, logged } = await startLogged(root, true);
    expect((await readState(server))['alerts']).toHaveLength(1);
    writeFileSync(path.join(root, 'main.html'), '<p id="status">main</p>');
    await waitFor(async () => ((await readState(server))['alerts'] as string[]).length === 0, SETTLE_MS, 'the alert to clear');
    expect(logged).toContainEqual(['info', 'the entry page main.html is there now.']);
    expect((await toolFile(server, 'main.html')).status).toBe(200);
  });
});

describe('a manifest that breaks while dev runs', () => {
  it('keeps the last good manifest, says where the file is broken, and says so in a tool-type refusal', async () => {
    const root = writeTool(QUOTING_MANIFEST);
    const { server, logged } = await startLogged(root, true);
    const line = { description: 'x', qty: 1, unitPrice: 1, taxRate: 0.15 };
    expect((await callBridge(server, 'quotes.addLines', [[line]])).ok).toBe(true);

    writeFileSync(path.join(root, 'manifest.json'), '{\n  "name": "Kitchen Estimator",\n  "type": "quoting_extension"\n  "entry": "index.html"\n}\n');
    const alerts = await waitFor(async () => ((await readState(server))['alerts'] as string[]).find((text) => text.startsWith('manifest.json is broken')), SETTLE_MS, 'the alert');
    expect(alerts).toMatch(/^manifest\.json is broken at line 4, column 3: .*the host keeps the last good manifest: Kitchen Estimator, quoting_extension, entry index\.html\.$/);
    const state = await readState(server);
    expect(state['tool']).toMatchObject({ toolId: 'Kitchen Estimator', toolType: 'quoting_extension', entry: 'index.html', lastGood: true });
    // The quote still takes lines: the tool did not silently become standalone.
    expect((await callBridge(server, 'quotes.addLines', [[line]])).ok).toBe(true);
    expect(logged.find(([, message]) => message.startsWith('manifest.json is broken'))).toEqual(['error', expect.stringMatching(/at line 4, column 3: .*Keeping the last good manifest until it is fixed\.$/)]);

    // A refusal that depends on the manifest names it: here the author forces standalone off and back.
    writeFileSync(path.join(root, 'manifest.json'), JSON.stringify({ ...QUOTING_MANIFEST, type: 'standalone' }));
    await waitFor(async () => (await readState(server))['tool'].toolType === 'standalone', SETTLE_MS, 'the fixed manifest');
    expect(logged.some(([, message]) => message === 'manifest.json is readable again.')).toBe(true);
    writeFileSync(path.join(root, 'manifest.json'), '{ "type": "standalone", }');
    await waitFor(async () => (await readState(server))['tool'].lastGood === true, SETTLE_MS, 'the broken manifest');
    const refused = (await callBridge(server, 'quotes.addLines', [[line]])) as unknown as { ok: boolean; error: { code: string; message: string } };
    expect(refused.error.code).toBe('TOOL_TYPE_NOT_ALLOWED');
    expect(refused.error.message).toMatch(/manifest\.json is broken at line 1, column \d+: .*; the host keeps the last good manifest, whose type is standalone\.$/);
  });

  it('broken from the start: the tool runs as standalone, and the refusal says why', async () => {
    const root = writeTool(QUOTING_MANIFEST);
    writeFileSync(path.join(root, 'manifest.json'), '{ "type": "quoting_extension"');
    const { server, logged } = await startLogged(root);
    const refused = (await callBridge(server, 'quotes.addLines', [[{ description: 'x', qty: 1, unitPrice: 1, taxRate: 0.15 }]])) as unknown as { error: { code: string; message: string } };
    expect(refused.error.code).toBe('TOOL_TYPE_NOT_ALLOWED');
    expect(refused.error.message).toMatch(/manifest\.json is broken at line 1, column \d+: .*; the host runs the tool as standalone, as the platform would\.$/);
    expect(logged[0]?.[1]).toMatch(/^manifest\.json is broken at line 1/);
  });
});

describe("the frame's reports", () => {
  it('reach the terminal from the host page only, with the base path made relative', async () => {
    const { server, logged } = await startLogged(writeTool());
    const token = new URL(server.toolUrl).pathname.split('/')[2]!;
    const report = { kind: 'error', message: `Uncaught TypeError: x is not a function (${server.toolUrl}app.js)`, file: `${server.toolUrl}app.js`, line: 3, column: 9 };
    expect((await postFromHostPage(server, '/__pipeline/report', report)).status).toBe(200);
    expect(logged).toEqual([['error', 'tool: uncaught error at app.js:3:9: Uncaught TypeError: x is not a function (app.js)']]);
    expect(JSON.stringify(logged)).not.toContain(token);
    expect((await postFromHostPage(server, '/__pipeline/report', { kind: 'eval', message: 'x' })).status).toBe(400);
    const fromElsewhere = await sendRequest(server.port, {
      path: '/__pipeline/report',
      method: 'POST',
      headers: { Origin: 'null', 'Content-Type': 'application/json' },
      body: JSON.stringify(report),
    });
    expect(fromElsewhere.status).toBe(403);
    expect(logged).toHaveLength(1);
  });

  it('are read as untrusted data', () => {
    expect(readToolReport({ kind: 'console', message: 'm', file: 5 }, 'tok')).toBeUndefined();
    expect(readToolReport({ kind: 'constructor', message: 'm' }, 'tok')).toBeUndefined();
    expect(readToolReport({ kind: 'blocked', message: 'x'.repeat(5000), line: -1, column: 1.5 }, 'tok')).toEqual({ kind: 'blocked', message: 'x'.repeat(2000), file: null, line: null, column: null });
    expect(readToolReport({ kind: 'error', message: 'see http://localhost:1/t/tok/a.js and tok', file: 'http://[::1]:2/t/tok/lib/a.js' }, 'tok')).toEqual({
      kind: 'error',
      message: 'see a.js and …',
      file: 'lib/a.js',
      line: null,
      column: null,
    });
    // Nothing from the tool can colour the terminal or pass for a line of its own.
    expect(describeToolProblem({ kind: 'console', message: 'red \u001b[31mtext\nerror fake line', file: 'a\u0007.js', line: null, column: null })).toBe(
      'tool: console.error at a\\u0007.js: red \\u001b[31mtext\n    error fake line',
    );
    expect(describeToolProblem({ kind: 'rejection', message: 'Unhandled promise rejection: Error: no', file: 'app.js', line: 2, column: null })).toBe(
      'tool: unhandled rejection at app.js:2: Unhandled promise rejection: Error: no',
    );
  });
});

describe("the tool's reports in the terminal", () => {
  it('prints at most 20 a second, then says how many were not printed', () => {
    // The clock is the test's; the timer that says the count at a window's end fires only when told.
    vi.useFakeTimers();
    let time = 0;
    const printed: [string, string][] = [];
    const report = createReportLimiter((level, message) => printed.push([level, message]), () => time);
    for (let n = 0; n < 20_000; n++) report('error', `tool: uncaught error ${n}`);
    expect(printed).toHaveLength(REPORTS_PER_SECOND);
    time = 1_000;
    report('error', 'tool: uncaught error later');
    expect(printed.slice(REPORTS_PER_SECOND)).toEqual([
      ['warning', 'tool: 19,980 more reports were not printed (at most 20 a second); the host page lists them.'],
      ['error', 'tool: uncaught error later'],
    ]);
    time = 1_500;
    for (let n = 0; n < 30; n++) report('error', 'again');
    time = 2_000;
    report('warning', 'next');
    expect(printed.slice(-2)).toEqual([
      ['warning', 'tool: 11 more reports were not printed (at most 20 a second); the host page lists them.'],
      ['warning', 'next'],
    ]);
    // With no report after a burst, the count is still said once the second is over.
    time = 2_100;
    for (let n = 0; n < 25; n++) report('error', 'burst');
    vi.advanceTimersByTime(1_000);
    expect(printed.at(-1)).toEqual(['warning', 'tool: 6 more reports were not printed (at most 20 a second); the host page lists them.']);
    vi.useRealTimers();
  });
});
