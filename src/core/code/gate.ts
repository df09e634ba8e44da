/**
 * Bytes held while waiting for a trigger. A file larger than this without one so far is read from
 * its start anyway, so that memory stays bounded whatever the file.
 */
export const HOLD_LIMIT = 8 * 1024 * 1024;

/**
 * Holds a file's chunks (without copying them) until a cheap native or table-driven search says
 * the file can have a finding at all; then hands the held chunks, and every later one, to the real
 * reader. Most files of a large bundle never open the gate, and so are never tokenized.
 */
export class Gate {
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private reader: ((chunk: Buffer) => void) | undefined;

  constructor(
    /** True once the chunks seen so far (this one included) hold a trigger. */
    private readonly triggered: (chunk: Buffer) => boolean,
    /** Makes the real reader; called at most once. */
    private readonly open: () => (chunk: Buffer) => void,
  ) {}

  get opened(): boolean {
    return this.reader !== undefined;
  }

  write(chunk: Buffer): void {
    if (this.reader) {
      this.reader(chunk);
      return;
    }
    this.held!.push(chunk);
    this.heldBytes += chunk.length;
    if (this.triggered(chunk) || this.heldBytes > HOLD_LIMIT) {
      const reader = this.open();
      this.reader = reader;
      for (const part of this.held!) reader(part);
    }
    if (this.reader) this.held = undefined;
  }

  /** Lets go of what is held; returns whether the reader ever ran. */
  close(): boolean {
    this.held = undefined;
    return this.opened;
  }
}

/**
 * A case-insensitive search for short ASCII words across chunks, for formats where a regular
 * expression over the chunk's text is fast enough (CSS is small next to a bundle's scripts).
 */
export function wordSearch(pattern: RegExp, longest: number): (chunk: Buffer) => boolean {
  let seam = '';
  return (chunk) => {
    const text = chunk.toString('latin1');
    if (seam !== '' && pattern.test(seam + text.slice(0, longest - 1))) return true;
    seam = (seam + text.slice(-(longest - 1))).slice(-(longest - 1));
    return pattern.test(text);
  };
}
