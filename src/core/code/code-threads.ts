import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { Finding } from '../problem.js';
import type { BundleEntry } from '../shipment/source.js';
import type { BundleFacts } from './js-rule.js';
import type { ModuleExports } from './module-links.js';
import type { DisableDirective } from './scanner.js';
import { noteScriptMode } from './script-modes.js';

/*
 * The code checks of a large bundle's scripts, shared over worker threads. Each script file is one
 * job: its bytes, read by the same tokenizer and walker as on one thread (js-scanner.ts, runScriptJob),
 * either in a worker or on the reading thread. A job is checked against the bundle's state as it
 * stands when the job starts, which may lack what earlier files, still being checked, will add:
 * the exports of module files (looked up when an import is read) and how scripts are loaded (which
 * the syntax check reads). So a job only records: the module files it looked up and did not find,
 * and what it would add. Results are merged in bundle order; a job that looked up a module file
 * that an earlier file has added by its turn is checked again, on the reading thread, against the
 * state as one thread would have had it. Every other file that reads or writes that state (a page,
 * a script too large to be a job) waits until the jobs before it are merged, and is then read as
 * on one thread. Findings, their order, disable comments and library marks come out as one
 * thread's, byte for byte.
 *
 * None of this runs unless PIPELINE_TOOL_CODE_THREADS asks (see settings): on two cores a worker
 * took about a fifteenth off `validate maxmin.zip` for about 35 MiB more memory, and slowed bundles
 * whose scripts V8 parses as well, on the syntax check's own thread (docs/performance.md). Even
 * then, a bundle with less than THREADS_THRESHOLD bytes of script starts no worker: each costs
 * about a hundred milliseconds of CPU to start and tens of megabytes of memory.
 */

/** Bytes of .js files (as their headers declare) from which a bundle's scripts are shared over threads. */
export const THREADS_THRESHOLD = 16 * 1024 * 1024;
/** A script larger than this is read on the reading thread, streamed, as on one thread: a job holds its file whole. */
export const JOB_LIMIT = 8 * 1024 * 1024;
/** Jobs given to a worker and not answered, at most: one to work on, one waiting, so that it never idles. */
const WORKER_DEPTH = 2;
/** Bytes of jobs done and not merged (waiting for an earlier one) past which reading waits. */
const UNMERGED_LIMIT = 24 * 1024 * 1024;
/**
 * Jobs given and not merged past which reading waits. A job checked while an earlier one is not
 * merged may have looked up that file's exports too early, and is then checked again: the fewer
 * ahead, the fewer checked twice.
 */
const UNMERGED_JOBS = 3;
/** Frames of shared memory for jobs' bytes are made in multiples of this. */
const FRAME_GRAIN = 64 * 1024;
/** Workers at most, whatever the machine. */
const MAX_WORKERS = 4;

/** What one job finds and would change in the bundle's state. */
export interface JobResult {
  findings: Finding[];
  directives: DisableDirective[];
  /** Findings made through a name imported from a module not read yet, and what each waits on. */
  conditional: Array<{ finding: Finding; module: string; name: string; texts: readonly string[] }>;
  /** The file's exports, when the walker read it as a module file. */
  exports: ModuleExports | undefined;
  /** How the file says other scripts are loaded (an import loads a module), in the order it said so. */
  modes: Array<[string, 'classic' | 'module']>;
  /** Module files looked up and not found: the job holds only if they are still missing at its turn. */
  missed: string[];
}

/** What a job needs besides its bytes; the same for every file of a bundle. */
export interface JobSetting {
  toolType: string | undefined;
  declared: boolean;
  hasJquery: boolean;
  scriptBytes: number;
  paths: string[];
}

export interface Job {
  file: string;
  /** The file's chunks as they were read: the job reads them in the same pieces. */
  chunks: Buffer[];
}

/** Runs a job on this thread against `modules` (what is known now). */
export type RunHere = (job: Job, modules: ReadonlyMap<string, ModuleExports>) => JobResult;

/** What the reading thread does with a job's result at its turn (the syntax check, the file's output). */
export type Merged<T> = (result: JobResult) => T;

interface Pending {
  job: Job;
  bytes: number;
  /** Set once the job has been done (here or in a worker); undefined while a worker has it. */
  result: JobResult | undefined;
  /** Set when a worker failed to answer: the job is done here at its turn. */
  lost: boolean;
  merge: (result: JobResult) => void;
  /** A genuine internal error, met at the file's turn: validate throws it, as on one thread. */
  fail: (error: unknown) => void;
}

interface WorkerSlot {
  worker: Worker;
  /** Where the worker answers: read without waiting for the event loop (see drain). */
  port: MessagePort;
  load: number;
  failed: boolean;
}

/** A job as a worker is given it: its bytes are the first lengths' sum of `frame`, read in pieces of those lengths. */
export interface JobMessage {
  id: number;
  file: string;
  frame: SharedArrayBuffer;
  lengths: number[];
}

/** What a worker answers on its port: a job's result (undefined: do it again here). */
export interface WorkerAnswer {
  id: number;
  result: JobResult | undefined;
}

/**
 * How many workers a bundle over the threshold gets, and the threshold: none unless
 * PIPELINE_TOOL_CODE_THREADS asks. "auto" is one worker per core but one (at most MAX_WORKERS) and
 * THREADS_THRESHOLD; "<workers>[,<threshold in bytes>]" forces both (tests, benchmarks). Off by
 * default: on two cores the checks came out slower or not much faster (docs/performance.md).
 */
function settings(): { workers: number; threshold: number } {
  const asked = process.env.PIPELINE_TOOL_CODE_THREADS;
  if (asked === undefined || asked === '' || asked === '0') return { workers: 0, threshold: THREADS_THRESHOLD };
  if (asked === 'auto') return { workers: Math.max(0, Math.min(MAX_WORKERS, availableParallelism() - 1)), threshold: THREADS_THRESHOLD };
  const [workers, threshold] = asked.split(',').map(Number);
  return {
    workers: Number.isInteger(workers) && workers! >= 0 ? Math.min(workers!, MAX_WORKERS) : 0,
    threshold: threshold !== undefined && Number.isFinite(threshold) ? threshold : THREADS_THRESHOLD,
  };
}

/** What the threads did in this process: jobs given to workers, done here, and done again at their turn; frames of shared memory made for the workers' jobs. */
const counts = { workers: 0, here: 0, again: 0, frames: 0 };

export function codeThreadCounts(): Readonly<typeof counts> {
  return { ...counts };
}

const requireHere = createRequire(import.meta.url);

/**
 * The worker's file: the CLI's bundled copy (dist/cli/code-worker.cjs), from dist/ and from the
 * CLI's bundles alike (both find it from dist/core/code/). Run from the TypeScript sources there
 * is none, and the checks stay on one thread.
 */
function workerFile(): string | undefined {
  try {
    const file = fileURLToPath(new URL('../../cli/code-worker.cjs', import.meta.url));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The threads of one bundle's checks. */
export class CodeThreads {
  private readonly queue: Pending[] = [];
  private readonly slots: WorkerSlot[] = [];
  private unmergedBytes = 0;
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly facts: BundleFacts,
    private readonly setting: JobSetting,
    private readonly runHere: RunHere,
    workers: number,
    file: string,
  ) {
    const threads = requireHere('node:worker_threads') as typeof WorkerThreads;
    this.receive = threads.receiveMessageOnPort;
    for (let i = 0; i < workers; i++) {
      const { port1, port2 } = new threads.MessageChannel();
      let worker: Worker;
      try {
        worker = new threads.Worker(file, { workerData: { setting, port: port2 }, transferList: [port2], stdout: true, stderr: true });
      } catch {
        port1.close();
        continue;
      }
      const slot: WorkerSlot = { worker, port: port1, load: 0, failed: false };
      worker.unref();
      port1.on('message', (answer: WorkerAnswer) => this.answered(slot, answer));
      port1.unref();
      slot.worker.on('error', () => this.fail(slot));
      slot.worker.on('exit', () => this.fail(slot));
      this.slots.push(slot);
    }
  }

  /** The threads for a bundle whose scripts are large enough, else undefined (everything stays on one thread). */
  static start(facts: BundleFacts, setting: Omit<JobSetting, 'paths' | 'scriptBytes' | 'hasJquery'>, files: readonly BundleEntry[], runHere: RunHere): CodeThreads | undefined {
    const { workers, threshold } = settings();
    if (workers === 0 || facts.scriptBytes < threshold) return undefined;
    const file = workerFile();
    if (!file) return undefined;
    const full: JobSetting = { ...setting, hasJquery: facts.hasJquery, scriptBytes: facts.scriptBytes, paths: files.map((f) => f.path) };
    const threads = new CodeThreads(facts, full, runHere, workers, file);
    return threads.slots.length > 0 ? threads : undefined;
  }

  /** Whether a file of this size is read as a job. */
  takes(size: number): boolean {
    return size <= JOB_LIMIT;
  }

  /**
   * Checks a script file as a job, in a worker if one has room, else here at once; `merged` is
   * called at the file's turn, in bundle order, and its value is what the promise gives.
   */
  submit<T>(job: Job, merged: Merged<T>): Promise<T> {
    const bytes = job.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    this.drain();
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { job, bytes, result: undefined, lost: false, merge: (result) => resolve(merged(result)), fail: reject };
      this.queue.push(pending);
      this.unmergedBytes += bytes;
      const slot = this.slots.filter((s) => !s.failed && s.load < WORKER_DEPTH).sort((a, b) => a.load - b.load)[0];
      if (slot) {
        slot.load++;
        counts.workers++;
        const id = this.nextId++;
        const frame = this.frameFor(bytes);
        let at = 0;
        for (const chunk of job.chunks) at += chunk.copy(frame, at);
        this.given.set(id, { pending, slot, frame });
        slot.worker.ref();
        slot.worker.postMessage({ id, file: job.file, frame: frame.buffer as SharedArrayBuffer, lengths: job.chunks.map((c) => c.length) } satisfies JobMessage);
      } else {
        counts.here++;
        try {
          pending.result = this.runHere(job, this.facts.modules);
        } catch {
          // Done again at its turn, where the error is met as one thread meets it.
          pending.lost = true;
        }
      }
      this.mergeReady();
    });
  }

  /** Resolves once every job given so far is merged. */
  settled(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (this.queue.length === 0 ? resolve() : this.waiters.push(check));
      check();
    });
  }

  /** Resolves once the jobs done and waiting for their turn hold little enough memory to read on. */
  roomToRead(): Promise<void> | undefined {
    const room = () => this.queue.length <= UNMERGED_JOBS && this.unmergedBytes <= UNMERGED_LIMIT;
    if (room()) return undefined;
    this.drain();
    if (room()) return undefined;
    return new Promise((resolve) => {
      const check = () => (room() ? resolve() : this.waiters.push(check));
      this.waiters.push(check);
    });
  }

  private nextId = 0;
  private readonly given = new Map<number, { pending: Pending; slot: WorkerSlot; frame: Buffer }>();

  /**
   * Memory shared with the workers that jobs' bytes are copied into, each reused once the worker
   * given it has answered. Memory new to the process costs a page fault per page the first time it
   * is written, and a job's bytes are mostly written once: a buffer of their own per job (a copy,
   * moved to the worker) cost the reading thread more in faults than the worker saved it.
   */
  private readonly frames: Buffer[] = [];

  /** A frame of at least `bytes` (as a view of exactly that many), from those free or new. */
  private frameFor(bytes: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.frames.length; i++) {
      const size = this.frames[i]!.buffer.byteLength;
      if (size >= bytes && (best < 0 || size < this.frames[best]!.buffer.byteLength)) best = i;
    }
    if (best >= 0) {
      const [frame] = this.frames.splice(best, 1);
      return Buffer.from(frame!.buffer, 0, bytes);
    }
    // None large enough: a new one, and the smallest free one let go, so that what is kept never
    // exceeds what the workers can hold at once.
    if (this.frames.length > 0) this.frames.splice(this.frames.indexOf(this.frames.reduce((a, b) => (a.buffer.byteLength <= b.buffer.byteLength ? a : b))), 1);
    counts.frames++;
    return Buffer.from(new SharedArrayBuffer(Math.ceil(Math.max(bytes, 1) / FRAME_GRAIN) * FRAME_GRAIN), 0, bytes);
  }

  private readonly receive: typeof WorkerThreads.receiveMessageOnPort;

  /**
   * Takes what the workers have said since, without waiting for the event loop: the reading thread
   * may not return to it until the bundle is read (zip entries are inflated, and jobs run, in one
   * go), and a worker whose answers wait there has nothing more to do meanwhile.
   */
  private drain(): void {
    for (const slot of this.slots) {
      if (slot.failed) continue;
      for (let received = this.receive(slot.port); received; received = this.receive(slot.port)) this.answered(slot, received.message as WorkerAnswer);
    }
  }

  private answered(slot: WorkerSlot, { id, result }: WorkerAnswer): void {
    const given = this.given.get(id);
    this.given.delete(id);
    // The worker is done with the job's bytes once it has answered.
    if (given) this.frames.push(given.frame);
    const pending = given?.pending;
    slot.load--;
    if (slot.load === 0) slot.worker.unref();
    if (!pending) return;
    if (result) pending.result = result;
    else pending.lost = true;
    this.mergeReady();
  }

  /** A worker died or could not start: its jobs are done here at their turn. */
  private fail(slot: WorkerSlot): void {
    if (slot.failed) return;
    slot.failed = true;
    for (const [id, given] of this.given) {
      if (given.slot !== slot) continue;
      given.pending.lost = true;
      this.given.delete(id);
    }
    slot.load = 0;
    this.mergeReady();
  }

  /** Merges one job at its turn into the bundle's state, and gives the file its output. */
  private merge(head: Pending): void {
    const modules = this.facts.modules;
    // Looked up a module file that an earlier file has added since: done again, as one thread would.
    const holds = head.result !== undefined && !head.result.missed.some((path) => modules.has(path));
    if (!holds) counts.again++;
    const result = holds ? head.result! : this.runHere(head.job, modules);
    for (const [path, mode] of result.modes) noteScriptMode(this.facts, path, mode);
    if (result.exports) {
      modules.set(head.job.file, result.exports);
      for (const slot of this.slots) if (!slot.failed) slot.worker.postMessage({ module: head.job.file, exports: result.exports });
    }
    head.merge(result);
  }

  /** Stops the workers once the bundle is read: a long-running caller (the dev server) keeps no idle threads. */
  close(): void {
    this.frames.length = 0;
    for (const slot of this.slots) {
      if (slot.failed) continue;
      slot.failed = true;
      void slot.worker.terminate();
    }
  }

  /** Merges, in bundle order, the jobs at the head of the queue that are done. */
  private mergeReady(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (!head.result && !head.lost) break;
      this.queue.shift();
      this.unmergedBytes -= head.bytes;
      try {
        this.merge(head);
      } catch (error) {
        head.fail(error);
      }
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
