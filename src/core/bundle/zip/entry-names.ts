import type { Finding } from '../../problem.js';
import type { EntryKind } from '../../shipment/source.js';
import { FLAG_UTF8 } from './zip-format.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** Decodes an entry name; names that are not UTF-8, or lack the UTF-8 flag, become findings. */
export function decodeName(bytes: Buffer, flags: number, findings: Finding[]): string {
  const ascii = bytes.every((b) => b < 0x80);
  if (ascii) return bytes.toString('latin1');
  try {
    const name = utf8.decode(bytes);
    if (!(flags & FLAG_UTF8)) {
      // Readers that follow the format decode unflagged names as code page 437.
      const asCp437 = Array.from(bytes, (b) => (b < 0x80 ? String.fromCharCode(b) : cp437High[b - 0x80])).join('');
      findings.push({ ruleId: 'path-utf8-flag', file: name, data: { cp437: asCp437 } });
    }
    return name;
  } catch {
    const name = lossy.decode(bytes);
    findings.push({ ruleId: 'path-encoding', file: name, data: { hex: bytes.toString('hex') } });
    return name;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOST_UNIX = 3;
const DOS_REPARSE_POINT = 0x400;

/** What the entry is, from its name and, where the creating host recorded one, its file mode. */
export function entryKind(name: string, host: number, external: number): EntryKind {
  const namedAsDirectory = name.endsWith('/');
  if (host === HOST_UNIX) {
    const type = (external >>> 16) & S_IFMT;
    if (type === S_IFLNK) return 'symlink';
    if (type === S_IFDIR) return namedAsDirectory ? 'directory' : 'other';
    if (type !== 0 && type !== S_IFREG) return 'other';
    if (type === S_IFREG && namedAsDirectory) return 'other';
  }
  if (external & DOS_REPARSE_POINT) return 'symlink';
  return namedAsDirectory ? 'directory' : 'file';
}
