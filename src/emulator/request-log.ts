/**
 * `--request-log FILE`: one JSON line per request (time, method, path, query, status, fault).
 * Headers and bodies are never written, so no token reaches the log.
 */
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { UsageError } from '../errors.js';

export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  fault?: string;
}

export type RequestLogSink = (entry: RequestLogEntry) => void;

export interface FileRequestLog {
  sink: RequestLogSink;
  close(): Promise<void>;
}

export function fileRequestLog(path: string): FileRequestLog {
  // Opened here, so that a path that cannot be written is the user's error now, not a crash later.
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (error) {
    throw new UsageError(`--request-log ${path}: cannot open: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const stream: WriteStream = createWriteStream(path, { fd });
  return {
    sink: (entry) => stream.write(`${JSON.stringify(entry)}\n`),
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}
