/**
 * Loaded with `node --import` ahead of the CLI, and so by Node in every worker thread the CLI starts:
 * each worker thread appends its id, one a line, to the file WORKERS_FILE names. Plain JavaScript,
 * as Node loads it before any build step could.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';

const out = process.env['WORKERS_FILE'];
if (!out) throw new Error('record.mjs: set WORKERS_FILE to the file to append to');
if (!isMainThread) appendFileSync(out, `${threadId}\n`);
