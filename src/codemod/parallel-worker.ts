/**
 * The entry of a `--jobs` worker thread (src/codemod/parallel.ts): runs one part of a codemod run
 * and posts back what the report lists of it, or its error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isUsageError } from '../errors.js';
import { codemodPart, type PartJob, type PartMessage } from './parallel.js';

const post = (message: PartMessage) => parentPort!.postMessage(message);

try {
  post(codemodPart(workerData as PartJob, (done, total) => post({ kind: 'progress', done, total })));
} catch (error) {
  const stack = (error as Error).stack;
  post({ kind: 'failed', message: (error as Error).message, usage: isUsageError(error), ...(stack ? { stack } : {}) });
}
