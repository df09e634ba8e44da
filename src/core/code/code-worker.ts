import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { BundleEntry } from '../shipment/source.js';
import type { JobMessage, JobResult, JobSetting, WorkerAnswer } from './code-threads.js';
import { runScriptJob, type JobBundle } from './js-scanner.js';
import type { ModuleExports } from './module-links.js';
import { bundleIndex } from './references.js';

/*
 * A worker of code-threads.ts: checks the script files it is given as jobs, against the module
 * exports the reading thread has merged so far (sent to it as they are merged, so always before the
 * jobs that come after them). Built into dist/cli/code-worker.cjs by scripts/build.mjs.
 */

const { setting, port } = workerData as { setting: JobSetting; port: MessagePort };
const paths = setting.paths.map((path) => ({ path }) as BundleEntry);
const bundle: JobBundle = { toolType: setting.toolType, declared: setting.declared, index: bundleIndex(paths), hasJquery: setting.hasJquery, scriptBytes: setting.scriptBytes };
const modules = new Map<string, ModuleExports>();

type Message = { module: string; exports: ModuleExports } | JobMessage;

parentPort!.on('message', (message: Message) => {
  if ('module' in message) {
    modules.set(message.module, message.exports);
    return;
  }
  const { id, file, frame, lengths } = message;
  // Shared with the reading thread, which copies another job in once this one is answered: nothing
  // read from it may outlive the job (the result is copied as it is posted).
  const whole = Buffer.from(frame);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const length of lengths) {
    chunks.push(whole.subarray(at, at + length));
    at += length;
  }
  let result: JobResult | undefined;
  try {
    result = runScriptJob({ file, chunks }, bundle, modules);
  } catch {
    // The reading thread does the job again itself, and meets the error there as one thread would.
    result = undefined;
  }
  port.postMessage({ id, result } satisfies WorkerAnswer);
});
