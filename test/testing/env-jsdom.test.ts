// @vitest-environment jsdom
import { describe, it } from 'vitest';
import { runToolInTestDom } from './environments.js';

describe('the testing kit in vitest with jsdom', () => {
  it('gives a script in the test DOM a window.pipeline that adds lines', () => runToolInTestDom('quoting_extension'));
  it('refuses a standalone tool as dev does', () => runToolInTestDom('standalone'));
});
