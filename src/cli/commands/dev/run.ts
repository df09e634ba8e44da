import path from 'node:path';
import { Chalk } from 'chalk';
import type { CallOutcome } from '../../../dev/session.js';
import { API_ENDPOINTS, type ApiKey } from '../../../platform/index.js';
import { startDevServer } from '../../../dev/server.js';
import { summariseWarnings } from '../../../dev/warning-summary.js';
import { EXIT } from '../../exit-codes.js';
import { useColour, type CliIo } from '../../io.js';
import { resolveTarget, shownPath } from '../../project.js';
import type { DevFlags } from './command.js';
import '../../parse-memory.js';

/**
 * Runs the dev server until Ctrl-C (SIGINT) or SIGTERM, then closes it and returns 0. The address
 * goes to stdout; the running log (calls, reloads, problems) goes to stderr.
 */
export async function runDev(dir: string | undefined, flags: DevFlags, io: CliIo, stopped: Promise<NodeJS.Signals>): Promise<number> {
  const target = await resolveTarget(dir, flags, io, 'dev', { buildOutput: flags.url !== undefined });
  const chalk = new Chalk({ level: useColour(io, io.stderrIsTTY) ? 1 : 0 });
  const time = () => chalk.dim(new Date().toLocaleTimeString());
  const colourOf = { info: chalk.cyan, warning: chalk.yellow, error: chalk.red } as const;

  // Ctrl-C while the server starts (a large fixture file loading) gives up starting.
  const starting = new AbortController();
  void stopped.then(() => starting.abort(new Error('stopped while starting')));
  const goodbye = (signal: NodeJS.Signals) => io.stderr(`${signal === 'SIGINT' ? '\n' : ''}Stopping pipeline-tool dev…\n`);
  const server = await startDevServer({
    root: target.path,
    ruleSettings: { rules: target.rules, overrides: target.overrides },
    // Findings and runtime errors placed at the author's source are named from the project's folder.
    sourceRoot: target.project?.root ?? io.cwd,
    ...(flags.port === undefined ? {} : { port: flags.port }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
    ...(flags.fixtures === undefined ? {} : { fixturesFile: path.resolve(io.cwd, flags.fixtures) }),
    ...(flags.sdk === undefined ? {} : { sdkVersion: flags.sdk }),
    ...(flags.url === undefined ? {} : { url: flags.url }),
    ...(flags.manifest === undefined ? {} : { manifest: path.resolve(io.cwd, flags.manifest) }),
    // Beside the project file, or in the folder the command runs from: never in the tool folder,
    // so that `dev dist` keeps settings when dist is rebuilt.
    settingsFile: path.join(target.project?.root ?? io.cwd, '.pipeline-tool', 'settings.json'),
    onLog: (level, message) => io.stderr(`${time()} ${colourOf[level](level)} ${message}\n`),
    onCall: (method, outcome: CallOutcome) => {
      const result = outcome.ok ? chalk.green('ok') : chalk.red(outcome.error.code);
      const count = outcome.warnings.length;
      const counted = count === 0 ? '' : chalk.yellow(count === 1 ? ', 1 warning' : `, ${count} warnings`);
      const warnings = summariseWarnings(outcome.warnings)
        .map((line) => `\n    ${chalk.yellow('warning')} ${line}`)
        .join('');
      io.stderr(`${time()} ${method} ${result}${counted} ${chalk.dim(`${outcome.ms} ms`)}${warnings}\n`);
    },
    signal: starting.signal,
  }).catch((error: unknown) => {
    if (!starting.signal.aborted) throw error;
    return undefined;
  });
  if (server === undefined) {
    goodbye(await stopped);
    return EXIT.ok;
  }

  const shownTarget = shownPath(target.path, io.cwd);
  const tool =
    server.sdkUrl === null
      ? [`  Tool:     ${server.toolOrigin} (a second origin, as on the platform)`]
      : [`  Page:     ${server.toolUrl} (its <head> must load ${server.sdkUrl})`, `  Findings: ${shownTarget}, validated after each build`];
  io.stdout(
    [
      server.sdkUrl === null ? `pipeline-tool dev is serving ${shownTarget}` : `pipeline-tool dev is framing ${server.toolUrl}`,
      `  Open:     ${server.url}`,
      ...server.networkUrls.map((url) => `  Network:  ${url}`),
      ...tool,
      `  Settings: ${path.relative(io.cwd, server.settingsFile)}`,
      `  REST API: ${server.apiUrl}`,
      ...apiKeyLines(server.apiKeys, server.apiKey, server.apiUrl),
      '  Stop:     Ctrl-C',
      '',
    ].join('\n'),
  );

  goodbye(await stopped);
  await server.close();
  return EXIT.ok;
}

/** Keys listed at start; a fixture file with more names the rest by count. */
const MAX_KEYS_SHOWN = 10;

/**
 * The API keys in use, so an integrator can call the REST API at once: one key with a curl to try;
 * several (a fixture file's apiKeys) each with what it may call and how often, then the curl.
 */
function apiKeyLines(keys: readonly ApiKey[], ready: string | null, apiUrl: string): string[] {
  if (keys.length === 0 || ready === null) return ['  API key:  none: the fixture file has no apiKeys, so every request gets 401'];
  // The curl lists customers, so it takes a key that may: the ready one when it can.
  const lister = [ready, ...keys.map((key) => key.key)].find((candidate) => keys.find((key) => key.key === candidate)?.scopes.has('GET /api/v1/customers'));
  const curl = lister === undefined ? undefined : `curl -H "Authorization: Bearer ${lister}" ${apiUrl}/customers`;
  if (keys.length === 1) return [`  API key:  ${ready}${curl === undefined ? '   (its scopes leave out GET /api/v1/customers)' : `   (try: ${curl})`}`];
  const shown = keys.slice(0, MAX_KEYS_SHOWN);
  const width = Math.max(...shown.map((key) => key.key.length));
  const describe = (key: ApiKey) => {
    const scopes = key.scopes.size === API_ENDPOINTS.length ? 'every endpoint' : key.scopes.size === 0 ? 'no endpoint' : API_ENDPOINTS.filter((endpoint) => key.scopes.has(endpoint)).join(', ');
    return `${scopes}; ${key.rateLimit.requests} requests per ${key.rateLimit.windowSeconds} s`;
  };
  return [
    ...shown.map((key, index) => `  ${index === 0 ? 'API keys:' : '         '} ${key.key.padEnd(width)}   ${describe(key)}`),
    ...(keys.length > shown.length ? [`            and ${keys.length - shown.length} more in the fixture file`] : []),
    ...(curl === undefined ? [] : [`  Try:      ${curl}`]),
  ];
}
