/**
 * `--request-log FILE`: one JSON line per request (time, method, path, query, status, fault).
 * Headers and bodies are never written, so no token reaches the log.
 */
import { createWriteStream, type WriteStream } from 'node:fs';

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
  const stream: WriteStream = createWriteStream(path, { flags: 'a' });
  return {
    sink: (entry) => stream.write(`${JSON.stringify(entry)}\n`),
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}
