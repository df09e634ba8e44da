/*
 * Ctrl-C (SIGINT) and SIGTERM end `dev` cleanly. The listeners go in before anything slow starts
 * (loading the server, reading the folder, binding ports): a signal that arrives while the server
 * is still starting then waits for the start, and ends with the same goodbye and exit 0, instead
 * of killing the process halfway.
 */

export interface StopSignal {
  /** Resolves with the first SIGINT or SIGTERM; at once if one came already. */
  readonly stopped: Promise<NodeJS.Signals>;
  /** Removes the listeners, so that a second signal ends the process the usual way. */
  dispose(): void;
}

export function listenForStop(): StopSignal {
  let dispose = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (name: NodeJS.Signals) => {
      dispose();
      resolve(name);
    };
    dispose = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { stopped, dispose };
}
