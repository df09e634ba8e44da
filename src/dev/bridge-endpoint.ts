import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, readJsonObject, sendJson } from './http-utils.js';
import type { CallOrder } from './call-order.js';
import { MAX_CALL_BYTES, type DevSession } from './session.js';
import { decodeWireValue, WireError } from './wire-values.js';

/*
 * POST /__pipeline/call: the host page hands over one bridge call from the tool's frame, and gets
 * back what the tool's promise settles with. The body is data only: the method is a name looked
 * up in the model's own table, the arguments are decoded values, and nothing is ever evaluated.
 */

const METHOD_NAME = /^[A-Za-z]{1,40}\.[A-Za-z]{1,40}$/;
const CHANNEL = /^[A-Za-z0-9_-]{1,64}$/;

/** The call's place from the request's address, or undefined for a call outside any sequence. */
export function readCallOrder(target: string | undefined): CallOrder | undefined {
  const query = new URLSearchParams((target ?? '').split('?')[1]?.split('#')[0] ?? '');
  const channel = query.get('channel');
  const seq = Number(query.get('seq'));
  if (channel === null || !CHANNEL.test(channel) || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { channel, seq };
}

export async function handleBridgeCall(request: IncomingMessage, response: ServerResponse, session: DevSession, onDone: () => void): Promise<void> {
  const order = readCallOrder(request.url);
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
    if (order !== undefined) session.skip(order);
    sendJson(response, status, { error: message }, headers);
  };
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, MAX_CALL_BYTES);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    refuse(error.status, error.message, error.status === 413 ? { Connection: 'close' } : {});
    return;
  }
  const { method, args } = body;
  if (typeof method !== 'string' || !METHOD_NAME.test(method)) {
    refuse(400, 'method must be a bridge method name such as "products.list"');
    return;
  }
  // The host page does not send a call over the limit, only its size: the session answers it
  // with CALL_TOO_LARGE, in its turn, as the testing kit does.
  const tooLarge = body['tooLarge'];
  if (args === null && typeof tooLarge === 'number' && Number.isSafeInteger(tooLarge) && tooLarge > MAX_CALL_BYTES) {
    sendJson(response, 200, await session.call(method, [], order, tooLarge));
    onDone();
    return;
  }
  if (!Array.isArray(args)) {
    refuse(400, 'args must be an array');
    return;
  }
  let decoded: unknown[];
  try {
    decoded = decodeWireValue(args) as unknown[];
  } catch (error) {
    if (!(error instanceof WireError) && !(error instanceof RangeError)) throw error;
    refuse(400, `args cannot be read: ${error.message}`);
    return;
  }
  const outcome = await session.call(method, decoded, order);
  sendJson(response, 200, outcome);
  onDone();
}
