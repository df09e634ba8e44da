import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/platform/index.js';
import { tempDir } from '../helpers/bundles.js';
import { BIN, runCli, STACK_TRACE } from '../helpers/cli.js';
import { spawnDev } from './dev-process.js';
import { canConnect, freePort, reachableOwnAddresses, writeTool } from './helpers.js';

const blockers: Server[] = [];
afterAll(() => blockers.forEach((server) => server.close()));

describe('pipeline-tool dev (the binary)', () => {
  it('shows how to call the REST API in its help', () => {
    const result = runCli(['dev', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`curl -H "Authorization: Bearer ${DEFAULT_API_KEY}" http://127.0.0.1:4800/api/v1/customers`);
  });


  it('prints the address, answers on it, and exits 0 on Ctrl-C', async () => {
    const root = writeTool();
    const cwd = tempDir();
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'dev', root, '--port', String(port)], { cwd, env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        running = false;
        resolve(code);
      }),
    );
    try {
      const deadline = Date.now() + 15_000;
      while (running && !stdout.includes('Stop:') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stdout, `stderr: ${stderr}`).toContain(`Open:     http://127.0.0.1:${port}/`);
      expect(stdout).toContain(`Settings: ${path.join('.pipeline-tool', 'settings.json')}`);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('pipeline-tool dev');
      // The REST API's address and a key that works with it, as printed.
      expect(stdout).toContain(`REST API: http://127.0.0.1:${port}/api/v1`);
      const key = /API key: +(\S+)/.exec(stdout)?.[1];
      const customers = await fetch(`http://127.0.0.1:${port}/api/v1/customers`, { headers: { Authorization: `Bearer ${key}` } });
      expect(customers.status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 10_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(stderr).toContain('Stopping pipeline-tool dev');
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  it('listens on loopback only by default, for the host page and the tool files', async () => {
    const child = spawn(process.execPath, [BIN, 'dev', writeTool(), '--port', '0'], { cwd: tempDir(), env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 15_000;
      while (child.exitCode === null && !stdout.includes('Stop:') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const hostPort = Number(/Open: +http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)?.[1]);
      const toolPort = Number(/Tool: +http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]);
      expect(hostPort, stdout).toBeGreaterThan(0);
      expect(toolPort, stdout).toBeGreaterThan(0);
      expect(await canConnect('127.0.0.1', hostPort)).toBe(true);
      expect(await canConnect('127.0.0.1', toolPort)).toBe(true);
      for (const address of await reachableOwnAddresses()) {
        expect(await canConnect(address, hostPort), `host page on ${address}`).toBe(false);
        expect(await canConnect(address, toolPort), `tool files on ${address}`).toBe(false);
      }
    } finally {
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('exits 2 with a suggestion when the port is in use', async () => {
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const result = runCli(['dev', writeTool(), '--port', String(port)], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^pipeline-tool: port ${port} on 127\\.0\\.0\\.1 is already in use .*--port \\d+`));
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it.each([
    [['--sdk', '3.1.0'], /SDK version must be one from 2\.1\.0 to 2\.5\.0/],
    [['--port', 'eighty'], /--port takes a whole number/],
    [['--port', '70000'], /port must be a whole number from 0 to 65535/],
  ])('exits 2 for %j', (flags, message) => {
    const result = runCli(['dev', writeTool(), ...flags], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it('exits 2 for a folder that does not exist', () => {
    const result = runCli(['dev', path.join(tempDir(), 'missing')], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not exist');
  });

  it('prints the fixture file\'s API keys with what each may call, and a curl with one that may list customers', async () => {
    const cwd = tempDir();
    const fixtures = {
      $schema: './node_modules/pipeline-tool/schemas/fixtures.schema.json',
      apiKeys: [
        { key: DEFAULT_API_KEY, scopes: [] },
        { key: 'partner-key-0001', scopes: ['GET /api/v1/customers', 'GET /api/v1/products'], rateLimit: { requests: 5, windowSeconds: 10 } },
        { key: 'writer-key-0002', scopes: ['POST /api/v1/quotes'] },
      ],
    };
    writeFileSync(path.join(cwd, 'fixtures.json'), JSON.stringify(fixtures));
    const dev = spawnDev([writeTool(), '--port', '0', '--fixtures', 'fixtures.json'], { cwd });
    try {
      await dev.waitForOutput(/Stop:/);
      const stdout = dev.stdout();
      expect(stdout).toContain(`  API keys: ${DEFAULT_API_KEY}   no endpoint; 60 requests per 60 s\n`);
      expect(stdout).toContain(`            partner-key-0001           GET /api/v1/customers, GET /api/v1/products; 5 requests per 10 s\n`);
      expect(stdout).toContain(`            writer-key-0002            POST /api/v1/quotes; 60 requests per 60 s\n`);
      const curl = /Try: +curl -H "Authorization: Bearer (\S+)" (\S+)/.exec(stdout);
      expect(curl?.[1]).toBe('partner-key-0001');
      const answer = await fetch(curl![2]!, { headers: { Authorization: `Bearer ${curl![1]}` } });
      expect(answer.status).toBe(200);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });

  it('exits 2 for a broken fixture file, naming line and column', () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'fixtures.json'), '{\n  "products": [\n    { "sku": 5 }\n  ]\n}\n');
    const result = runCli(['dev', writeTool(), '--fixtures', 'fixtures.json', '--port', '0'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/fixtures\.json:3:\d+/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});
