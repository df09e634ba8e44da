import { inspect } from 'node:util';
import type { Plugin } from 'vite';

/*
 * A build that fails on the author's mistake says so as Vite says its own errors: the message, with
 * no stack trace. An error thrown from a Rolldown hook reaches `vite build` wrapped in one of
 * Rolldown's, which the command prints whole (its frames, then `errors: [Getter/Setter]`). So when
 * Vite builds the app (`vite build`, `createBuilder().buildApp()`), a hook records the failure, the
 * build writes nothing more, and the failure is thrown once the app's build is over, from Vite's own
 * buildApp hook, where nothing wraps it. Through `build()`, which runs no buildApp hook, and in watch
 * mode, the hook's own error is used, as before (its message is the same).
 */

/** A mistake of the author's that stops the build: printed as its message alone. */
export class BuildFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildFailure';
    // Inside Rolldown's summary of a hook's error, nothing but the message either.
    this.stack = message;
  }

  [inspect.custom](): string {
    return this.message;
  }
}

/** What the plugins of one build share about its failure. */
export interface Failure {
  /** Vite builds the app and runs its buildApp hooks (not `build()`). */
  byBuilder: boolean;
  /** The failure recorded, thrown once the app's build is over. */
  failure?: BuildFailure;
}

export function createFailure(): Failure {
  return { byBuilder: false };
}

/** Fails the build with `message`: at once through `build()` or in watch mode, else once the app's build is over. */
export function failBuild(failure: Failure, context: { error(error: Error): never; meta: { watchMode: boolean } }, message: string): void {
  const error = new BuildFailure(message);
  if (!failure.byBuilder || context.meta.watchMode) context.error(error);
  failure.failure ??= error;
}

/** The two buildApp hooks: one before the app is built, one that builds what Vite has not built yet and then throws what was recorded. */
export function failurePlugins(failure: Failure): Plugin[] {
  return [
    {
      name: 'pipeline-tool:failure-start',
      apply: 'build',
      buildApp: {
        order: 'pre',
        async handler() {
          failure.byBuilder = true;
          delete failure.failure;
        },
      },
    },
    {
      name: 'pipeline-tool:failure',
      apply: 'build',
      buildApp: {
        order: 'post',
        async handler(builder) {
          // Unless the config asks for an app build (`builder`), Vite builds after the last buildApp
          // hook, the environments none of them built: they are built here instead, as Vite would.
          for (const environment of Object.values(builder.environments)) if (!environment.isBuilt) await builder.build(environment);
          if (failure.failure) throw failure.failure;
        },
      },
    },
  ];
}
