import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { nestsTooDeep } from '../core/json/scan-json.js';
import { FixtureError, mergeFixtureFile, parseFixtures, readFixtureBytes, validateFixtureValue, type Fixtures } from '../platform/index.js';

/*
 * A fixture file saved while dev runs is loaded beside the server, never in its way. JSON.parse
 * of a catalogue of 100,000 rows holds its thread for a few hundred milliseconds, and handing a
 * parsed value from one thread to another costs about as much again, all at once. So a worker
 * thread parses the file and hands the value back in batches of rows: each batch arrives as a
 * task of its own on the server's thread, and requests are answered between them. The checks (a
 * long table 1,000 rows per step) and the merge, all linear, run on the server's thread, with a
 * turn of the event loop between steps; the
 * data in use is swapped only once the new data is complete and valid.
 *
 * The worker's code is plain JavaScript given as text, with no import of ours, so that it runs the
 * same from the built package and from the sources under test.
 */

/** Rows per message from the worker: a few milliseconds of work each on the server's thread. */
const ROWS_PER_BATCH = 1000;

// The worker sends one message, then waits to be asked for the next: messages that pile up in a
// port are all taken in one turn of the event loop, which would bring back the very wait this avoids.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
function* messages() {
  let value;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(workerData.bytes).replace(/^\\uFEFF/, ''));
  } catch {
    yield { type: 'syntax-error' };
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    yield { type: 'whole', value };
    return;
  }
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (Array.isArray(member) && member.length > ${ROWS_PER_BATCH}) {
      for (let start = 0; start < member.length; start += ${ROWS_PER_BATCH}) {
        yield { type: 'rows', key, rows: member.slice(start, start + ${ROWS_PER_BATCH}) };
      }
    } else {
      yield { type: 'member', key, value: member };
    }
  }
  yield { type: 'end' };
}
const pending = messages();
const sendNext = () => {
  const next = pending.next();
  if (!next.done) parentPort.postMessage(next.value);
};
parentPort.on('message', sendNext);
sendNext();
`;

type WorkerMessage =
  | { type: 'syntax-error' }
  | { type: 'whole'; value: unknown }
  | { type: 'member'; key: string; value: unknown }
  | { type: 'rows'; key: string; rows: unknown[] }
  | { type: 'end' };

export interface FixtureLoad {
  /** The checked data set, or a FixtureError. Once the load is cancelled, its outcome means nothing. */
  readonly fixtures: Promise<Fixtures>;
  /** Stops the load: its worker thread ends, and so do its steps on this thread, at the next. */
  cancel(): void;
}

/** Loads a fixture file as loadFixtureFile does, parsing it on a worker thread. */
export function loadFixturesInBackground(file: string): FixtureLoad {
  let worker: Worker | undefined;
  let cancelled = false;
  // A turn of the event loop between steps; a cancelled load goes no further, so that nothing of
  // it keeps dev running once it closes.
  const step = async () => {
    await nextTurn();
    if (cancelled) throw new Error('the fixture load was cancelled');
  };
  const fixtures = (async () => {
    const bytes = await readFixtureBytes(file);
    const value = await parseOnWorker(bytes, file, (started) => {
      worker = started;
      if (cancelled) void started.terminate();
    });
    // A broken file, or one nested too deeply, is read again here, on this thread, for the line and
    // column of its first error.
    if (value === SYNTAX_ERROR) return parseFixtures(bytes.toString('utf8'), file);
    await step();
    if (typeof value === 'object' && value !== null && nestsTooDeep(value)) return parseFixtures(bytes.toString('utf8'), file);
    let text: string | undefined;
    const textOf = () => (text ??= bytes.toString('utf8').replace(/^\uFEFF/, ''));
    await step();
    const checked = await validateFixtureValue(value, textOf, file, step);
    await step();
    const merged = mergeFixtureFile(checked, textOf, file);
    await step();
    return merged;
  })();
  return {
    fixtures,
    cancel() {
      cancelled = true;
      void worker?.terminate();
    },
  };
}

const SYNTAX_ERROR = Symbol('syntax error');

function parseOnWorker(bytes: Buffer, file: string, started: (worker: Worker) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bytes } });
    started(worker);
    // Built key by key as an own property, so that a member named __proto__ stays data, as
    // JSON.parse leaves it, and the schema refuses it as an unknown field.
    const value: Record<string, unknown> = {};
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: WorkerMessage) => {
      // Asked for after a turn of the event loop, so that requests waiting meanwhile go first.
      if (message.type === 'member' || message.type === 'rows') void nextTurn().then(() => !settled && worker.postMessage('next'));
      switch (message.type) {
        case 'syntax-error':
          settle(() => resolve(SYNTAX_ERROR));
          return;
        case 'whole':
          settle(() => resolve(message.value));
          return;
        case 'member':
          Object.defineProperty(value, message.key, { value: message.value, enumerable: true, writable: true, configurable: true });
          return;
        case 'rows':
          if (Object.hasOwn(value, message.key)) (value[message.key] as unknown[]).push(...message.rows);
          else Object.defineProperty(value, message.key, { value: message.rows, enumerable: true, writable: true, configurable: true });
          return;
        case 'end':
          settle(() => resolve(value));
          return;
      }
    });
    const fail = (reason: string, cause?: unknown) =>
      settle(() => reject(new FixtureError('FIXTURE_UNREADABLE', file, [{ pointer: '', line: null, column: null, message: reason }], { cause })));
    // Such as running out of memory on a file of millions of rows.
    worker.on('error', (error) => fail(`it could not be parsed: ${error.message}`, error));
    worker.on('exit', () => fail('it could not be parsed: the thread parsing it stopped'));
  });
}
