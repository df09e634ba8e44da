// What the benchmark runs on and with: the machine, the standard tools it compares against, and
// which of our commands exist yet. Nothing here throws: a missing piece becomes a note in the report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * Variables that change what Node does before it runs a line of ours: extra CA certificates read
 * and parsed at start (NODE_EXTRA_CA_CERTS alone costs about 38 ms here), options and preloads
 * (NODE_OPTIONS), coverage, compile caches, ICU data, an OpenSSL configuration, the size of the
 * thread pool that zlib inflates on. Measured with them, a figure says more about the machine's
 * setup than about pipeline-tool, and the baseline `node -e 0` pays them too, which hides our cost.
 */
const STARTUP_VARIABLES = /^(NODE_(?!ENV$)[A-Z0-9_]+|OPENSSL_CONF|OPENSSL_MODULES|UV_THREADPOOL_SIZE)$/;

/** Removes those variables from `env` (in place, so every child inherits it) and returns their names. */
export function removeStartupVariables(env = process.env) {
  const removed = Object.keys(env).filter((name) => STARTUP_VARIABLES.test(name)).sort();
  for (const name of removed) delete env[name];
  return removed;
}

export function describeMachine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

function firstLine(text) {
  return text.split('\n').map((line) => line.trim()).find((line) => line.length > 0) ?? '';
}

/** Runs a short command and keeps its output; never throws. */
function probe(file, args, options = {}) {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: 30_000, ...options });
  return {
    ran: !result.error,
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    error: result.error,
  };
}

/**
 * Looks for zip, unzip and GNU time. Each entry is `{ available, version?, note? }`; the note says
 * what is missing and how to get it, since a missing tool means a goal cannot be checked.
 */
export function findSystemTools() {
  const tools = {};

  const zip = probe('zip', ['-v']);
  tools.zip = zip.ran
    ? { available: true, version: /Zip (\d[\w.]*)/.exec(zip.stdout)?.[1] ?? 'unknown' }
    : { available: false, note: 'zip (Info-ZIP) was not found on PATH; install it (e.g. apt-get install zip)' };

  const unzip = probe('unzip', ['-v']);
  tools.unzip = unzip.ran
    ? { available: true, version: /UnZip (\d[\w.]*)/.exec(unzip.stdout)?.[1] ?? 'unknown' }
    : { available: false, note: 'unzip (Info-ZIP) was not found on PATH; install it (e.g. apt-get install unzip)' };

  tools.time = probeGnuTime();
  return tools;
}

/** GNU time must exist at /usr/bin/time and understand `-f %M -o file` (busybox and shells differ). */
export function probeGnuTime(file = '/usr/bin/time') {
  const missing = { available: false, note: `${file} (GNU time) was not found; install it (e.g. apt-get install time) to measure peak memory` };
  if (!existsSync(file)) return missing;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-time-'));
  try {
    const out = path.join(dir, 'rss');
    const result = probe(file, ['-f', '%M', '-o', out, process.execPath, '-e', '0']);
    const kib = result.ran && existsSync(out) ? Number(firstLine(readFileSync(out, 'utf8'))) : NaN;
    if (!(kib > 0)) {
      return { available: false, note: `${file} does not report peak memory with -f %M (is it GNU time?)` };
    }
    return { available: true, file };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Picks the line of an error output that says the most: the error itself, not a stack frame. */
export function summariseOutput(text) {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /error|cannot find module/i.test(line)) ?? lines[0] ?? '(no output)';
}

/**
 * commander answers `<unknown> --help` with the program's general help and exit 0, so exit 0 alone
 * does not prove the command exists; its usage line must name it.
 */
function showsOwnUsage(args, output) {
  const command = args[0];
  if (command.startsWith('-')) return true;
  const usage = /^usage:\s*(.*)$/im.exec(output);
  return !usage || usage[1].split(/\s+/).includes(command);
}

const withoutOutput = ({ available, note }) => (available ? { available } : { available, note });

/**
 * Which of our commands can be measured. A command counts as available when `<command> --help`
 * exits 0 and shows that command's usage; anything else (no dist/, an unknown command) marks its
 * rows "not available" instead of failing them, since the command may simply not be written yet.
 */
export function probeCli({ bin, root }) {
  // bin/pipeline-tool.js only loads ../dist/cli/main.cjs, which the build writes.
  const built = existsSync(path.join(path.dirname(bin), '..', 'dist', 'cli', 'main.cjs'));
  const notBuilt = 'dist/ is missing: build first (npm run bench runs the build)';
  const check = (args) => {
    const result = probe(process.execPath, [bin, ...args], { cwd: root });
    if (result.status === 0 && showsOwnUsage(args, result.stdout)) return { available: true, output: result.stdout.trim() };
    if (result.status === 0) {
      return { available: false, note: `\`pipeline-tool ${args.join(' ')}\` shows the general help: the command is not there yet` };
    }
    const note = !built && /cannot find module|ERR_MODULE_NOT_FOUND/i.test(result.stderr)
      ? notBuilt
      : `\`pipeline-tool ${args.join(' ')}\` exited ${result.status ?? result.error?.code}: ${summariseOutput(result.stderr + result.stdout)}`;
    return { available: false, note };
  };
  const version = check(['--version']);
  return {
    bin,
    built,
    version: version.available ? { available: true, value: firstLine(version.output) } : version,
    commands: {
      validate: withoutOutput(check(['validate', '--help'])),
      pack: withoutOutput(check(['pack', '--help'])),
      dev: withoutOutput(check(['dev', '--help'])),
      // Not a command: the ESLint plugin, `pipeline-tool/eslint`, which the build writes.
      eslint: existsSync(path.join(path.dirname(bin), '..', 'dist', 'eslint', 'index.js')) ? { available: true } : { available: false, note: 'dist/eslint/ is missing: build first' },
    },
  };
}
