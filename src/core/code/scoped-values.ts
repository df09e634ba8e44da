/*
 * Names that stand for something only inside the bracket frame that declared them: a variable set
 * to part of the bridge, a constant set to a literal. A value set at frame depth `d` is given up
 * when that frame closes, and the one it hid (an outer declaration of the same name) comes back.
 * Setting `undefined` hides an outer value, as a local of the same name does.
 */
export class ScopedValues<K, V> {
  private readonly values = new Map<K, V>();
  /** What each setting hid, newest last, with the depth of the frame that made it. */
  private readonly undo: Array<{ key: K; hidden: V | undefined; depth: number }> = [];

  /** True when any value may be set: the walker skips the look-up otherwise. */
  get size(): number {
    return this.values.size;
  }

  get(key: K): V | undefined {
    return this.values.get(key);
  }

  /** Gives `key` the value `value` in the frame at `depth` (undefined: hides an outer one). */
  set(key: K, value: V | undefined, depth: number): void {
    const hidden = this.values.get(key);
    if (hidden === undefined && value === undefined) return;
    this.undo.push({ key, hidden, depth });
    this.deepest = depth;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }

  /** The frame at `depth` closes: what it and the frames inside it set is given up. */
  close(depth: number): void {
    const undo = this.undo;
    while (undo.length > 0 && undo[undo.length - 1]!.depth >= depth) {
      const { key, hidden } = undo.pop()!;
      if (hidden === undefined) this.values.delete(key);
      else this.values.set(key, hidden);
    }
    this.deepest = undo.length > 0 ? undo[undo.length - 1]!.depth : -1;
  }

  /** Where the settings made from now on start, to give them all up later with `rewind`. */
  mark(): number {
    return this.undo.length;
  }

  /** Gives up every setting made since `mark`: an inline module's top level is its own. */
  rewind(mark: number): void {
    const undo = this.undo;
    while (undo.length > mark) {
      const { key, hidden } = undo.pop()!;
      if (hidden === undefined) this.values.delete(key);
      else this.values.set(key, hidden);
    }
    this.deepest = undo.length > 0 ? undo[undo.length - 1]!.depth : -1;
  }

  /** The depth of the newest setting, or -1: a frame at that depth or above has work to do when it closes. */
  deepest = -1;
}
