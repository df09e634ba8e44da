import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/*
 * HTTP/1.1 lets a client send request after request on one connection without reading a single
 * answer. Node parses them all as they arrive and hands each to the server at once, so a client
 * that sends 100,000 requests for a tool file and never reads would have the server open 100,000
 * files and hold their contents. Here each connection gets a few requests answered at a time; the
 * rest wait, unopened, and the connection is not read again until its answers have gone out.
 */

/** How many requests of one connection are answered at once. Browsers send one at a time. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 8;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface ConnectionState {
  active: number;
  waiting: [IncomingMessage, ServerResponse][];
  paused: boolean;
  closed: boolean;
}

/** `handle`, answering at most `limit` requests of a connection at a time. */
export function limitInFlight(handle: Handler, limit = MAX_IN_FLIGHT_PER_CONNECTION): Handler {
  const connections = new WeakMap<Socket, ConnectionState>();

  const stateOf = (socket: Socket): ConnectionState => {
    let state = connections.get(socket);
    if (state === undefined) {
      const created: ConnectionState = { active: 0, waiting: [], paused: false, closed: false };
      // Requests still waiting when the client goes are dropped unanswered, never opened.
      socket.once('close', () => {
        created.closed = true;
        created.waiting.length = 0;
      });
      // Node resumes a connection by itself as each answer ends; while requests wait here, it is
      // paused again at once, before anything more is read from it.
      socket.on('resume', () => {
        if (created.paused) socket.pause();
      });
      connections.set(socket, created);
      state = created;
    }
    return state;
  };

  const start = (state: ConnectionState, socket: Socket, request: IncomingMessage, response: ServerResponse) => {
    state.active++;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      state.active--;
      const next = state.waiting.shift();
      if (next !== undefined && !state.closed) start(state, socket, ...next);
      else if (state.paused && state.waiting.length === 0) {
        state.paused = false;
        socket.resume();
      }
    };
    // 'close' comes once the answer is sent, or the connection is gone.
    response.once('close', done);
    handle(request, response);
  };

  return (request, response) => {
    const socket = request.socket;
    const state = stateOf(socket);
    if (state.active < limit) {
      start(state, socket, request, response);
      return;
    }
    state.waiting.push([request, response]);
    if (!state.paused) {
      state.paused = true;
      socket.pause();
    }
  };
}
