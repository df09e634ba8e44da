/*
 * Bridge calls in the order the tool made them. The SDK numbers each page's calls from 1; the
 * host page forwards each as its own HTTP request, and requests on parallel connections can
 * arrive in any order. A channel (one page load of the tool) holds back a call until every
 * earlier one of the same channel has started, so the host applies them as the platform's
 * in-memory host would: in call order, always.
 *
 * A call that never arrives (its request failed in the page) would hold back the rest for good,
 * so a gap left open for `gapMs` is given up on and the next waiting call goes ahead.
 */

export interface CallOrder {
  /** One page load of the tool, named by its SDK. */
  channel: string;
  /** The call's place in that page's calls, from 1. */
  seq: number;
}

export interface CallSequencer {
  /** Runs `start` once every earlier call of its channel has started or been skipped; at once without an order. */
  admit(order: CallOrder | undefined, start: () => void): void;
  /** The call of this place will never come (its request was refused): the ones after it need not wait. */
  skip(order: CallOrder): void;
}

interface Channel {
  next: number;
  waiting: Map<number, (() => void) | null>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Page loads remembered at once; the oldest idle one is forgotten first. */
const MAX_CHANNELS = 64;
/** Calls held back in one channel; beyond this, calls run as they come rather than pile up. */
const MAX_WAITING = 10_000;

export function createCallSequencer(options: { gapMs: number }): CallSequencer {
  const channels = new Map<string, Channel>();

  const channelFor = (name: string): Channel => {
    let channel = channels.get(name);
    if (channel === undefined) {
      if (channels.size >= MAX_CHANNELS) {
        for (const [key, old] of channels) {
          if (old.waiting.size === 0) {
            channels.delete(key);
            break;
          }
        }
      }
      channel = { next: 1, waiting: new Map(), timer: undefined };
      channels.set(name, channel);
    }
    return channel;
  };

  const release = (channel: Channel): void => {
    const before = channel.next;
    while (channel.waiting.has(channel.next)) {
      const start = channel.waiting.get(channel.next);
      channel.waiting.delete(channel.next);
      channel.next += 1;
      start?.();
    }
    if (channel.waiting.size === 0) {
      clearTimeout(channel.timer);
      channel.timer = undefined;
    } else if (channel.timer === undefined || channel.next !== before) {
      // The gap's clock starts when the channel last made progress.
      clearTimeout(channel.timer);
      channel.timer = setTimeout(() => {
        channel.timer = undefined;
        channel.next = Math.min(...channel.waiting.keys());
        release(channel);
      }, options.gapMs);
      channel.timer.unref?.();
    }
  };

  const place = (order: CallOrder, start: (() => void) | null): boolean => {
    const channel = channelFor(order.channel);
    // A place already taken or passed, or a channel flooded: nothing sensible to wait for.
    if (order.seq < channel.next || channel.waiting.has(order.seq) || channel.waiting.size >= MAX_WAITING) return false;
    channel.waiting.set(order.seq, start);
    release(channel);
    return true;
  };

  return {
    admit(order, start) {
      if (order === undefined || !place(order, start)) start();
    },
    skip(order) {
      place(order, null);
    },
  };
}
