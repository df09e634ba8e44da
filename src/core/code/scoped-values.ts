/*
 * Names that stand for something only inside the bracket frame that declared them: a variable set
 * to part of the bridge, a constant set to a literal. A value set at frame depth `d` is given up
 * when that frame closes, and the one it hid (an outer declaration of the same name) comes back.
 * Setting `undefined` hides an outer value, as a local of the same name does.
 */

/** Settings kept to be given back; past this many (only a hostile file nests so), new ones are not made. */
const MAX_SETTINGS = 100_000;

interface Entry<V> {
  value: V | undefined;
  depth: number;
  /** The `mark` it was made after: only then may a later setting in the same frame replace it in place. */
  epoch: number;
}

export class ScopedValues<K, V> {
  private readonly values = new Map<K, Entry<V>>();
  /** What each setting hid, newest last, with the depth of the frame that made it. */
  private readonly undo: Array<{ key: K; hidden: Entry<V> | undefined; depth: number }> = [];
  private epoch = 0;
  /** The depth of the newest setting, or -1: a frame at that depth or above has work to do when it closes. */
  deepest = -1;

  /** Nonzero when any value may be set: the walker skips the look-up otherwise. */
  get size(): number {
    return this.values.size;
  }

  get(key: K): V | undefined {
    return this.values.get(key)?.value;
  }

  /** Gives `key` the value `value` in the frame at `depth` (undefined: hides an outer one). */
  set(key: K, value: V | undefined, depth: number): void {
    const current = this.values.get(key);
    if (current?.value === undefined && value === undefined) return;
    if (current && current.depth === depth && current.epoch === this.epoch) {
      // The same frame declares the name again (`var a = …; var a = …`): nothing more to give back.
      current.value = value;
      return;
    }
    if (this.undo.length >= MAX_SETTINGS) return;
    this.undo.push({ key, hidden: current, depth });
    this.deepest = depth;
    this.values.set(key, { value, depth, epoch: this.epoch });
  }

  /** The frame at `depth` closes: what it and the frames inside it set is given up. */
  close(depth: number): void {
    const undo = this.undo;
    while (undo.length > 0 && undo[undo.length - 1]!.depth >= depth) this.giveBack(undo.pop()!);
    this.deepest = undo.length > 0 ? undo[undo.length - 1]!.depth : -1;
  }

  /** Where the settings made from now on start, to give them all up later with `rewind`. */
  mark(): number {
    this.epoch++;
    return this.undo.length;
  }

  /** Gives up every setting made since `mark`: an inline module's top level is its own. */
  rewind(mark: number): void {
    const undo = this.undo;
    while (undo.length > mark) this.giveBack(undo.pop()!);
    this.deepest = undo.length > 0 ? undo[undo.length - 1]!.depth : -1;
  }

  private giveBack({ key, hidden }: { key: K; hidden: Entry<V> | undefined }): void {
    if (hidden === undefined) this.values.delete(key);
    else this.values.set(key, hidden);
  }
}
