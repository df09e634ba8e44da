import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DevServerError } from './errors.js';

/** How many ports after a busy one are tried when the port may move, as Vite does. */
export const PORT_TRIES = 20;

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Starts listening, turning the usual failures into messages that say what to do. With
 * `movable`, a busy port gives way to the next free one (up to {@link PORT_TRIES} further on);
 * a port the author asked for by name stays put and fails instead.
 */
export async function listenOn(server: Server, port: number, host: string, movable = false): Promise<number> {
  let candidate = port;
  for (;;) {
    try {
      await listenOnce(server, candidate, host);
      return (server.address() as AddressInfo).port;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const canMove = movable && port !== 0 && code === 'EADDRINUSE' && candidate < Math.min(port + PORT_TRIES, 65535);
      if (!canMove) throw await describeListenError(error as NodeJS.ErrnoException, candidate, host);
      candidate += 1;
    }
  }
}

async function describeListenError(error: NodeJS.ErrnoException, port: number, host: string): Promise<Error> {
  switch (error.code) {
    case 'EADDRINUSE': {
      const free = await findFreePort(port + 10, host);
      const hint = free === undefined ? 'pick another one with --port <number>' : `try --port ${free}`;
      return new DevServerError('PORT_IN_USE', `port ${port} on ${host} is already in use (is another pipeline-tool dev running?). Stop that program, or ${hint}.`, {
        cause: error,
      });
    }
    case 'EACCES':
      return new DevServerError('INVALID_OPTION', `port ${port} needs administrator rights on this system; use a port above 1023, such as --port 4800.`, { cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new DevServerError('ADDRESS_UNAVAILABLE', `cannot listen on ${host}: no network interface of this computer has that address. Leave out --host to use 127.0.0.1.`, {
        cause: error,
      });
    default:
      return error;
  }
}

/** A port near `from` that can be bound right now, to suggest; undefined when none is found. */
async function findFreePort(from: number, host: string): Promise<number | undefined> {
  for (let port = from; port < from + 20 && port <= 65535; port++) {
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen({ port, host, exclusive: true }, () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
  return undefined;
}
