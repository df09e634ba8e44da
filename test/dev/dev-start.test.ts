import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { STACK_TRACE } from '../helpers/cli.js';
import { spawnDev } from './dev-process.js';
import { freePort, reachableOwnAddresses, startTestServer, writeTool } from './helpers.js';

/*
 * How `dev` starts and stops: a busy port, an address on the network, and a stop signal that
 * comes while the server is still starting.
 */

const blockers: Server[] = [];
afterAll(() => blockers.forEach((server) => server.close()));

/** Holds `port` on 127.0.0.1; resolves false when something else holds it already (it is busy either way). */
function block(port: number): Promise<boolean> {
  const server = createServer();
  blockers.push(server);
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(true));
  });
}

describe('a busy port', () => {
  it('moves to the next free port when none was asked for, and says so', async () => {
    await block(4800);
    const dev = spawnDev([writeTool()], { cwd: tempDir() });
    try {
      const url = await dev.url();
      const port = Number(new URL(url).port);
      expect(port).toBeGreaterThan(4800);
      expect(port).toBeLessThanOrEqual(4820);
      await dev.waitForOutput(/port 4800 is in use, so the host page took port \d+/, 'stderr');
      expect((await fetch(url)).status).toBe(200);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });

  it('in the library: moves unless the port was given, or strictPort says not to', async () => {
    const port = await freePort();
    expect(await block(port)).toBe(true);
    const moved = await startTestServer({ root: writeTool(), port, strictPort: false, watch: false });
    expect(moved.port).toBeGreaterThan(port);
    await expect(startTestServer({ root: writeTool(), port, watch: false })).rejects.toMatchObject({ code: 'PORT_IN_USE' });
  });
});

describe('--host beyond loopback', () => {
  it('prints the address other computers reach the host page at', async () => {
    const dev = spawnDev([writeTool(), '--host', '0.0.0.0', '--port', '0'], { cwd: tempDir() });
    try {
      const url = await dev.url();
      await dev.waitForOutput(/Stop:/);
      const port = new URL(url).port;
      const external = Object.values(networkInterfaces())
        .flat()
        .filter((info) => info !== undefined && !info.internal && info.family === 'IPv4')
        .map((info) => info!.address);
      const printed = [...dev.stdout().matchAll(/Network: +(\S+)/g)].map((match) => match[1]);
      expect(printed).toEqual(external.map((address) => `http://${address}:${port}/`));
      // Fetched where this machine can reach itself (a firewall may stand in the way elsewhere).
      const reachable = await reachableOwnAddresses();
      for (const address of printed.filter((url) => reachable.includes(new URL(url!).hostname))) expect((await fetch(address!)).status).toBe(200);
      expect(dev.stderr()).toContain('other computers on your network can open the host page');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });

  it('prints no network address on loopback', async () => {
    const dev = spawnDev([writeTool(), '--port', '0'], { cwd: tempDir() });
    try {
      await dev.waitForOutput(/Stop:/);
      expect(dev.stdout()).not.toContain('Network:');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });
});

describe('a stop signal while the server starts', () => {
  // A preload that sends the signal from inside dev at the first moment dev listens for it, and
  // says whether the address had been printed by then: it must not have been, or this would
  // test a stop after the start.
  const preload = path.join(tempDir(), 'stop-early.mjs');
  writeFileSync(
    preload,
    [
      'let printed = false;',
      'const write = process.stdout.write.bind(process.stdout);',
      'process.stdout.write = (...args) => { printed = true; return write(...args); };',
      'const timer = setInterval(() => {',
      "  if (process.listenerCount('SIGINT') === 0) return;",
      '  clearInterval(timer);',
      "  process.stderr.write(printed ? '[signal after the address]\\n' : '[signal before the address]\\n');",
      '  process.kill(process.pid, process.env.STOP_WITH);',
      '}, 1);',
      'timer.unref();',
      '',
    ].join('\n'),
  );

  it.each(['SIGINT', 'SIGTERM'] as const)('%s still ends with exit 0 and the goodbye', async (signal) => {
    const dev = spawnDev([writeTool(), '--port', '0'], { cwd: tempDir(), nodeOptions: ['--import', preload], env: { STOP_WITH: signal } });
    const code = await new Promise((resolve) => dev.child.on('exit', resolve));
    expect(dev.stderr()).toContain('[signal before the address]');
    expect(code).toBe(0);
    expect(dev.stderr()).toContain('Stopping pipeline-tool dev');
    expect(dev.stderr()).not.toMatch(STACK_TRACE);
  });
});
