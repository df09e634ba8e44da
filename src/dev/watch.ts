import { watch, type FSWatcher, type Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/*
 * File watching with node:fs only. A recursive fs.watch on Linux walks and watches everything,
 * node_modules included; watching one folder at a time lets us skip what can never be part of a
 * tool (hidden folders, node_modules) and cap the count. Editors save in bursts (write, rename,
 * chmod), so changes are collected and reported once things settle.
 */

export interface Watcher {
  /** Resolves once every folder present at the start is watched. */
  ready: Promise<void>;
  close(): void;
}

export interface FolderWatchOptions {
  /** Relative paths (with / separators) to leave alone, folders included. */
  ignore: (relative: string) => boolean;
  /** Called once per burst of changes with the relative paths that changed. */
  onChange: (relative: string[]) => void;
  /**
   * Told when the folder itself goes (a build deleting its output). Its return is a change of `''`;
   * a folder missing from the start is waited for without a word.
   */
  onRootGone?: () => void;
  /** Told once when the folder has more subfolders than are watched. */
  onLimit?: (limit: number) => void;
  debounceMs?: number;
  maxFolders?: number;
  /**
   * The folder as the caller read it before watching ({@link snapshotFolder}). What changed from
   * then until the watch was in place sent no event; once it is, every file that differs from
   * the snapshot (new, gone, or another size, ctime or inode) is reported as one burst.
   */
  since?: FolderSnapshot;
}

/**
 * Each file of a folder by its relative path, with what tells a change: inode, size, ctime; and
 * `''` for the folder itself, when it is there.
 */
export type FolderSnapshot = ReadonlyMap<string, string>;

/**
 * The files of a folder as they are now, walked as {@link watchFolder} watches it (ignored paths
 * left out, at most `maxFolders` folders). ctime is set by the file system on every write, rename
 * or change of mode, and no tool sets it back, so a file saved after this shows as changed, but
 * for one rewritten in place to the same size within the file system's clock tick.
 */
export async function snapshotFolder(root: string, ignore: (relative: string) => boolean, maxFolders = 2000): Promise<FolderSnapshot> {
  const files = new Map<string, string>();
  // A build's output folder may not be there yet; made later, it differs from this snapshot.
  if (!(await stat(root).then((info) => info.isDirectory(), () => false))) return files;
  files.set('', 'folder');
  let folders = 0;
  const walk = async (absolute: string, relative: string): Promise<void> => {
    if (folders++ >= maxFolders) return;
    for (const child of await readdir(absolute, { withFileTypes: true }).catch(() => [])) {
      const childRelative = relative === '' ? child.name : `${relative}/${child.name}`;
      if (ignore(childRelative)) continue;
      const childAbsolute = path.join(absolute, child.name);
      if (child.isDirectory()) await walk(childAbsolute, childRelative);
      else {
        const info = await lstat(childAbsolute).catch(() => undefined);
        if (info) files.set(childRelative, stampOf(info));
      }
    }
  };
  await walk(root, '');
  return files;
}

/** One file's stamp as {@link snapshotFolder} takes them (through a link), or undefined when it cannot be read. */
export async function fileStamp(file: string): Promise<string | undefined> {
  return stat(file).then(stampOf, () => undefined);
}

function stampOf(info: Stats): string {
  return `${info.ino}:${info.size}:${info.ctimeMs}`;
}

/** Folders that are never part of a tool and can be huge. */
export function isIgnoredToolPath(relative: string): boolean {
  return relative.split('/').some((part) => part.startsWith('.') || part === 'node_modules');
}

export function watchFolder(root: string, options: FolderWatchOptions): Watcher {
  const maxFolders = options.maxFolders ?? 2000;
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let limitReported = false;
  const relativeOf = (absolute: string) => path.relative(root, absolute).split(path.sep).join('/');

  const flush = async () => {
    timer = undefined;
    const changed = [...pending];
    pending.clear();
    if (!(await checkRoot())) return;
    // New folders need watchers of their own; deleted ones give theirs up.
    for (const relative of changed) {
      const absolute = path.join(root, relative);
      const info = await stat(absolute).catch(() => undefined);
      if (info?.isDirectory()) await addFolder(absolute);
      else if (info === undefined) dropFolder(absolute);
    }
    if (!closed && changed.length > 0) options.onChange(changed);
  };
  const schedule = (relative: string) => {
    pending.add(relative);
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void flush(), options.debounceMs ?? 80);
  };

  // Build tools often delete the output folder and make a new one (`dev dist`); the watchers of
  // the old folder then see nothing more, so a replaced or missing root is watched afresh. A root
  // missing from the start (a build not run yet) is waited for the same way.
  let rootId: number | undefined;
  let poll: NodeJS.Timeout | undefined;
  const checkRoot = async (): Promise<boolean> => {
    const info = await stat(root).catch(() => undefined);
    if (info?.isDirectory() && info.ino === rootId) return true;
    dropFolder(root);
    if (info?.isDirectory()) {
      rootId = info.ino;
      await addFolder(root);
      return true;
    }
    // Forgotten, so a folder made again under the same inode number is still watched afresh.
    const wasThere = rootId !== undefined;
    rootId = undefined;
    waitForRoot();
    if (wasThere && !closed) options.onRootGone?.();
    return false;
  };
  const waitForRoot = () => {
    if (closed) return;
    poll ??= setInterval(() => {
      void stat(root)
        .catch(() => undefined)
        .then((again) => {
          if (closed || !again?.isDirectory() || poll === undefined) return;
          clearInterval(poll);
          poll = undefined;
          schedule('');
        });
    }, 300);
  };

  const dropFolder = (absolute: string) => {
    for (const [folder, watcher] of watchers) {
      if (folder === absolute || folder.startsWith(absolute + path.sep)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
  };

  const addFolder = async (absolute: string): Promise<void> => {
    const relative = relativeOf(absolute);
    if (closed || watchers.has(absolute) || (relative !== '' && options.ignore(relative))) return;
    if (watchers.size >= maxFolders) {
      if (!limitReported) options.onLimit?.(maxFolders);
      limitReported = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, (_event, name) => {
        const child = name === null ? relative : relative === '' ? String(name) : `${relative}/${String(name)}`;
        if (child !== '' && options.ignore(child)) return;
        schedule(child);
      });
    } catch {
      return; // Gone or unreadable since it was listed: nothing to watch.
    }
    watcher.on('error', () => dropFolder(absolute));
    watchers.set(absolute, watcher);
    const children = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    for (const child of children) if (child.isDirectory()) await addFolder(path.join(absolute, child.name));
  };

  // After the watch is in place, so that a change is either seen here or sends an event.
  const reportChangedSince = async (since: FolderSnapshot) => {
    const now = await snapshotFolder(root, options.ignore, maxFolders);
    if (closed) return;
    for (const [file, stamp] of now) if (since.get(file) !== stamp) schedule(file);
    for (const file of since.keys()) if (!now.has(file)) schedule(file);
  };
  // A folder there when the caller read it and gone before the watch: its going, told now.
  const missingAtStart = () => {
    if (options.since?.has('') && !closed) options.onRootGone?.();
    waitForRoot();
  };
  const ready = stat(root).then(
    async (info) => {
      if (!info.isDirectory()) return missingAtStart();
      rootId = info.ino;
      await addFolder(root);
      if (options.since !== undefined) void reportChangedSince(options.since);
    },
    () => missingAtStart(),
  );
  return {
    ready,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      if (poll !== undefined) clearInterval(poll);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** Watches one file through its folder, because editors replace files rather than rewrite them. */
export function watchFile(file: string, onChange: () => void, debounceMs = 80): Watcher {
  const name = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path.dirname(file), (_event, changed) => {
      if (changed !== null && String(changed) !== name) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  return {
    ready: Promise.resolve(),
    close() {
      if (timer !== undefined) clearTimeout(timer);
      watcher?.close();
    },
  };
}
