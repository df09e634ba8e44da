import type { Token } from './js-rule.js';
import type { JsWalker } from './js-walker.js';

/** The walker's current token as watchers see it. */
export class TokenView implements Token {
  constructor(private readonly walker: JsWalker) {}
  get kind(): number {
    return this.walker.tokenKind;
  }
  get punct(): number {
    return this.walker.tokenPunct;
  }
  get word(): number {
    return this.walker.tokenWord;
  }
  get depth(): number {
    return this.walker.lexer.depth;
  }
  get newlineBefore(): boolean {
    return this.walker.lexer.newlineBefore;
  }
  stringValue(): string | undefined {
    return this.walker.lexer.stringValue();
  }
  plainTemplate(): boolean {
    return this.walker.lexer.plainTemplate();
  }
  numberValue(): number {
    return this.walker.numberValue();
  }
  line(): number {
    return this.walker.line();
  }
  column(): number {
    return this.walker.column();
  }
}
