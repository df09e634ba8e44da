import { scanJson } from '../json/scan-json.js';
import { MANIFEST_MAX_BYTES } from './read-manifest.js';

/** The editor-only key: the platform never reads it, so the bundle does not carry it. */
const SCHEMA_KEY = '$schema';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The manifest.json that ships: the folder's bytes without the top-level `$schema` member. Every
 * other byte is kept, and so is the line of everything after it (the member's lines stay, empty),
 * so a problem found in the shipped manifest points at the right line of the folder's file.
 * A manifest that is not a readable JSON object ships as it is, for the rules to report.
 */
export function shippedManifest(bytes: Buffer): Buffer {
  if (bytes.length > MANIFEST_MAX_BYTES || !bytes.includes(SCHEMA_KEY.slice(1))) return bytes;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return bytes;
  }
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = bom ? text.slice(1) : text;
  if (!scanJson(body).ok) return bytes;
  let out = body;
  // One at a time, scanning again after each cut, so a repeated key is removed as well.
  for (;;) {
    const members = topLevelMembers(out);
    const k = members?.findIndex((member) => member.key === SCHEMA_KEY) ?? -1;
    if (members === undefined || k < 0) break;
    out = withoutMember(out, members, k);
  }
  return out === body ? bytes : Buffer.from(bom + out, 'utf8');
}

/** The text without member `k`, keeping the lines of what follows. */
function withoutMember(text: string, members: readonly Member[], k: number): string {
  const member = members[k]!;
  const next = members[k + 1];
  const previous = members[k - 1];
  let start: number;
  let end: number;
  if (next) {
    // The member, its comma and the space up to the next key.
    start = member.start;
    end = next.start;
  } else if (previous) {
    // The last member: the comma after the previous one, and the member.
    start = previous.end;
    end = member.end;
  } else {
    start = member.start;
    end = member.end;
  }
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  const removed = text.slice(start, end);
  const newlines = removed.split('\n').length - 1;
  const indent = newlines > 0 && next ? (/[ \t]*$/.exec(removed)?.[0] ?? '') : '';
  return text.slice(0, start) + '\n'.repeat(newlines) + indent + text.slice(end);
}

interface Member {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

/** The members of a top-level object, in order; undefined when the text is not an object. Assumes valid JSON. */
function topLevelMembers(text: string): Member[] | undefined {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i++;
  const members: Member[] = [];
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === '}' || i >= text.length) return members;
    if (text[i] === ',') {
      i++;
      continue;
    }
    const start = i;
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    i = skipSpace(text, keyEnd) + 1; // the colon
    i = skipSpace(text, i);
    const end = skipValue(text, i);
    members.push({ key, start, end });
    i = end;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** Offset just past the string that starts at `i` (on its opening quote). */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] === '{' || text[i] === '[') {
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !/[\s,}\]]/.test(text[i]!)) i++;
  return i;
}
