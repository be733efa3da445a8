/**
 * A full garbage collection on demand, for the embedded audit (see `AuditOptions.afterLargeV1`).
 * Node hands out V8's `gc` only to a process started with `--expose-gc`; the flag may also be set
 * at run time, after which a fresh context sees `gc` as a global.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

export function fullCollection(): () => void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}
