/**
 * Loaded with `node --import` ahead of the CLI: records every module the process loads and, when it
 * exits, writes their paths (one a line) to the file LOADED_MODULES_FILE names. Plain JavaScript, as
 * Node loads it before any build step could.
 *
 * Two sources, because neither sees everything on Node 20: the resolve hook sees each `import` and
 * `import()` (ts-morph is reached that way from our code), and require's cache holds every CommonJS
 * module, such as the TypeScript that ts-morph requires.
 */
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const out = process.env['LOADED_MODULES_FILE'];
if (!out) throw new Error('record.mjs: set LOADED_MODULES_FILE to the file to write');

const { port1, port2 } = new MessageChannel();
port1.unref();
register('./resolve-hook.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

process.on('exit', () => {
  const loaded = new Set(Object.keys(createRequire(import.meta.url).cache));
  // The hook posts before each module loads, so every message is queued by now: take them without waiting.
  for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) {
    const url = String(m.message);
    loaded.add(url.startsWith('file:') ? fileURLToPath(url) : url);
  }
  writeFileSync(out, `${[...loaded].sort().join('\n')}\n`);
});
