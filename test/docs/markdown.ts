import { readdirSync } from 'node:fs';
import path from 'node:path';

/*
 * Reading the project's Markdown as GitHub renders it, for the tests that hold the README and
 * docs/ to what they claim: the links resolve, the commands run.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md and every page of docs/, relative to the repository's root. */
export function markdownFiles(root = ROOT): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The lines of a Markdown text that lie outside fenced code blocks, with their 1-based numbers. */
export function proseLines(text: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) found.push({ line: index + 1, text: line });
  });
  return found;
}

/** The line of a fence that opens a code block and never closes it, if any. */
export function unclosedFence(text: string): number | undefined {
  let open: number | undefined;
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker === undefined) return;
    if (fence === undefined) [fence, open] = [marker, index + 1];
    else if (marker[0] === fence[0] && marker.length >= fence.length) [fence, open] = [undefined, undefined];
  });
  return open;
}

/** The fenced blocks of a language (```sh), each with the number of its first line. */
export function codeBlocks(text: string, language: string): Array<{ line: number; body: string }> {
  const blocks: Array<{ line: number; body: string }> = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith(open[1]!) && line.trim() === open[1]);
    if (open[2] === language) blocks.push({ line: index + 2, body: lines.slice(index + 1, end).join('\n') });
    index = end === -1 ? lines.length : end;
  }
  return blocks;
}

/**
 * A heading's anchor as GitHub makes it: the rendered text (no code ticks, link targets or
 * emphasis marks) in lower case, punctuation removed except `-` and `_`, each space a `-`.
 */
export function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' (a repeated one gets -1, -2, …) and its `<a id>`s. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** The inline links of a page's prose (outside code), `[text](target)`, with their lines. */
export function linksOf(text: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  for (const { line, text: prose } of proseLines(text)) {
    const withoutCode = prose.replace(/`[^`]*`/g, '``');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line, target: match[1]! });
  }
  return links;
}
