import { parentPort, workerData } from 'node:worker_threads';
import type { BundleEntry } from '../shipment/source.js';
import type { JobResult, JobSetting } from './code-threads.js';
import { runScriptJob, type JobBundle } from './js-scanner.js';
import type { ModuleExports } from './module-links.js';
import { bundleIndex } from './references.js';

/*
 * A worker of code-threads.ts: checks the script files it is given as jobs, against the module
 * exports the reading thread has merged so far (sent to it as they are merged, so always before the
 * jobs that come after them). Built into dist/cli/code-worker.cjs by scripts/build.mjs.
 */

const setting = workerData as JobSetting;
const paths = setting.paths.map((path) => ({ path }) as BundleEntry);
const bundle: JobBundle = { toolType: setting.toolType, declared: setting.declared, index: bundleIndex(paths), hasJquery: setting.hasJquery, scriptBytes: setting.scriptBytes };
const modules = new Map<string, ModuleExports>();

type Message = { module: string; exports: ModuleExports } | { id: number; file: string; bytes: Uint8Array; lengths: number[] };

parentPort!.on('message', (message: Message) => {
  if ('module' in message) {
    modules.set(message.module, message.exports);
    return;
  }
  const { id, file, bytes, lengths } = message;
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
  parentPort!.postMessage({ id, result });
});
