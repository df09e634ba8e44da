// How long the event loop is held at a stretch while some work runs: a timer of 1 ms re-armed at
// each turn, keeping the longest gap between two turns. Used by the scripts that show a reload
// does not stall the dev server.

/** Starts watching; `stop()` ends it and returns the longest gap seen, in milliseconds. */
export function watchEventLoop() {
  let worst = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  return {
    stop() {
      ticking = false;
      return worst;
    },
  };
}
