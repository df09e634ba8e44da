/*
 * A framework may compile what the author wrote into a call of its own code, and a rule then finds
 * the sink there: Svelte compiles `{@html note}` to `$.html(anchor, note)`, and the `innerHTML`
 * write is in Svelte's html block, in node_modules. The author's own place is where the built
 * file's map lands on the value written in the framework's syntax. It is looked for only in a built
 * file where a finding of the rule was placed in the framework's code, so a map is never read for it alone.
 */

export interface CompiledSink<D> {
  /** The framework's file holding the sink, as a finding is placed there (relative to the project, with `/`). */
  readonly framework: RegExp;
  /** The sources, as a map names them, written in the framework's syntax. */
  readonly sources: RegExp;
  /**
   * The data of a finding at the author's place, when the source's `text` at `offset` (where a
   * piece of the built code comes from) is a value given to the sink in the framework's syntax;
   * undefined anywhere else, and where the value is one the rule takes as safe.
   */
  site(text: string, offset: number): D | undefined;
}

/**
 * A package whose finding the author can act on where they turned it on: `persist: true` in a
 * pinia store is what makes `pinia-plugin-persistedstate` read localStorage. The author's place is
 * where the built file's map lands on that option in the author's own source (not under
 * node_modules); it is looked for only in a built file where a finding of the rule was placed in
 * the package's code.
 */
export interface LibraryEntry {
  /** The npm package, as a finding in its code names it. */
  readonly package: string;
  /** The author's source text at the place (the option's key, the call's name) that turns it on. */
  readonly at: RegExp;
}
