import { afterAll, afterEach } from 'vitest';
import { endFile, endTest } from './helpers/file-end.js';

// Run before each test file: the helpers' clean-ups belong to whichever file is running.
afterEach(endTest);
afterAll(endFile);
