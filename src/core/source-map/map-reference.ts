import path from 'node:path';

/** Where a built file's source map is, as its own text says. */
export type MapReference =
  /** The map itself, carried in a `data:` URL. */
  | { kind: 'inline'; json: string }
  /** A file, by its slash-separated path from the bundle's root. */
  | { kind: 'file'; path: string }
  /** No comment: the map may still sit beside the file as `<file>.map`. */
  | { kind: 'none' }
  /** A comment that names nothing usable: another site, a path out of the bundle, a broken URL. */
  | { kind: 'unusable' };

/** How many lines from the end a map comment may sit: bundlers may write a `debugId` line after it. */
const LAST_LINES = 3;

const JS_COMMENT = /^\s*\/\/[#@]\s*sourceMappingURL=(\S+)\s*$/;
const CSS_COMMENT = /^\s*\/\*[#@]\s*sourceMappingURL=(\S+?)\s*\*\/\s*$/;

/**
 * The `sourceMappingURL` comment of a built script or stylesheet (`file` is its path in the
 * bundle), read as browsers and bundlers write it: on one of the last lines, alone on its line.
 * The same words inside the code (a library that writes such comments itself) are not it.
 */
export function mapReferenceOf(text: string, file: string): MapReference {
  let end = text.length;
  for (let seen = 0; seen < LAST_LINES && end > 0; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (line.trim() === '') continue;
    seen += 1;
    const url = (JS_COMMENT.exec(line) ?? CSS_COMMENT.exec(line))?.[1];
    if (url !== undefined) return fromUrl(url, file);
  }
  return { kind: 'none' };
}

function fromUrl(url: string, file: string): MapReference {
  if (/^data:/i.test(url)) return inline(url);
  // Another scheme (http:, file:, webpack:) or a path from the site's root is not beside the file.
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/') || url.startsWith('\\')) return { kind: 'unusable' };
  let relative: string;
  try {
    relative = decodeURIComponent(url.replace(/[?#].*$/s, ''));
  } catch {
    return { kind: 'unusable' };
  }
  // eslint-disable-next-line no-control-regex -- a name with control characters names no file of ours
  if (relative === '' || relative.includes('\\') || /[\u0000-\u001f]/.test(relative)) return { kind: 'unusable' };
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(file), relative));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/') || joined === '.') return { kind: 'unusable' };
  return { kind: 'file', path: joined };
}

/** `data:application/json;base64,…` or its percent-encoded form. */
function inline(url: string): MapReference {
  const comma = url.indexOf(',');
  if (comma < 0) return { kind: 'unusable' };
  const header = url.slice(5, comma).toLowerCase().split(';');
  const body = url.slice(comma + 1);
  if (header[0] !== '' && header[0] !== 'application/json' && header[0] !== 'text/plain') return { kind: 'unusable' };
  try {
    const json = header.includes('base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
    return { kind: 'inline', json };
  } catch {
    return { kind: 'unusable' };
  }
}
