import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, readJsonObject, sendJson } from './http-utils.js';
import type { DevSession } from './session.js';
import { decodeWireValue, WireError } from './wire-values.js';

/*
 * POST /__pipeline/call: the host page hands over one bridge call from the tool's frame, and gets
 * back what the tool's promise settles with. The body is data only: the method is a name looked
 * up in the model's own table, the arguments are decoded values, and nothing is ever evaluated.
 */

/** Generous for a quote of thousands of lines, small enough that no client can exhaust memory. */
export const MAX_CALL_BYTES = 5_000_000;
const METHOD_NAME = /^[A-Za-z]{1,40}\.[A-Za-z]{1,40}$/;

export async function handleBridgeCall(request: IncomingMessage, response: ServerResponse, session: DevSession, onDone: () => void): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, MAX_CALL_BYTES);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    sendJson(response, error.status, { error: error.message }, error.status === 413 ? { Connection: 'close' } : {});
    return;
  }
  const { method, args } = body;
  if (typeof method !== 'string' || !METHOD_NAME.test(method)) {
    sendJson(response, 400, { error: 'method must be a bridge method name such as "products.list"' });
    return;
  }
  if (!Array.isArray(args)) {
    sendJson(response, 400, { error: 'args must be an array' });
    return;
  }
  let decoded: unknown[];
  try {
    decoded = decodeWireValue(args) as unknown[];
  } catch (error) {
    if (!(error instanceof WireError) && !(error instanceof RangeError)) throw error;
    sendJson(response, 400, { error: `args cannot be read: ${error.message}` });
    return;
  }
  const outcome = await session.call(method, decoded);
  sendJson(response, 200, outcome);
  onDone();
}
