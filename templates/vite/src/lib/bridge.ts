import type { BridgeProblem, PipelineSdk } from 'pipeline-tool/bridge';

/** `window.pipeline`, or undefined when the page was opened outside a Pipeline host. */
export function findBridge(): PipelineSdk | undefined {
  return window.pipeline;
}

/** What a rejected bridge call says, whatever shape it came in. */
export interface BridgeFailure {
  message: string;
  code: string | null;
  details: BridgeProblem[];
}

/**
 * Reads a rejected bridge call. The platform documents no error shape; `pipeline-tool dev` adds a
 * `code` and, for bad arguments, `details` naming every problem. Show the message either way.
 */
export function readBridgeError(error: unknown): BridgeFailure {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const message = typeof record['message'] === 'string' && record['message'] !== '' ? record['message'] : String(error);
  const code = typeof record['code'] === 'string' ? record['code'] : null;
  const details = Array.isArray(record['details']) ? record['details'].filter(isBridgeProblem) : [];
  return { message, code, details };
}

function isBridgeProblem(value: unknown): value is BridgeProblem {
  const record = value as Record<string, unknown>;
  return typeof value === 'object' && value !== null && typeof record['path'] === 'string' && typeof record['message'] === 'string';
}
