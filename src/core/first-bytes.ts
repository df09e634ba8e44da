/**
 * Keeps the first `limit` bytes of a file read as chunks. Each kept part is a copy, so the reader
 * may hand on a buffer it fills again; at most `limit` bytes are copied, however large the file.
 */
export class FirstBytes {
  private readonly parts: Buffer[] = [];
  private kept = 0;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.kept >= this.limit;
  }

  write(chunk: Buffer): void {
    if (this.kept >= this.limit) return;
    const part = chunk.subarray(0, this.limit - this.kept);
    this.parts.push(Buffer.from(part));
    this.kept += part.length;
  }

  /** What was kept, as one buffer. */
  bytes(): Buffer {
    return Buffer.concat(this.parts, this.kept);
  }
}
