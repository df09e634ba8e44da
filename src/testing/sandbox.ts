/*
 * What the host's sandbox (an iframe with allow-scripts only, at an opaque origin) does to a
 * tool, as far as a test page can show it: dialogs and popups do nothing, and browser storage
 * throws, as docs/dev.md describes them under `dev`. Each is noted, so a test can see the tool
 * tried.
 */

export interface ConsoleEntry {
  level: 'log' | 'info' | 'warn' | 'error';
  message: string;
}

export function installSandbox(window: Window & typeof globalThis, note: (level: ConsoleEntry['level'], message: string) => void): void {
  const define = (name: string, value: unknown) => Object.defineProperty(window, name, { value, configurable: true, writable: true });
  const ignored = (name: string, result: unknown) => (...args: unknown[]) => {
    note('warn', `the sandbox ignored ${name}(${args.length > 0 ? JSON.stringify(String(args[0])) : ''}): show messages in the page instead`);
    return result;
  };
  define('alert', ignored('alert', undefined));
  define('confirm', ignored('confirm', false));
  define('prompt', ignored('prompt', null));
  define('open', ignored('window.open', null));
  for (const name of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(window, name, {
      configurable: true,
      get() {
        note('warn', `the sandbox refused ${name}: keep preferences with pipeline.settings`);
        throw new window.DOMException(`Failed to read the '${name}' property from 'Window': The document is sandboxed and lacks the 'allow-same-origin' flag.`, 'SecurityError');
      },
    });
  }
}
