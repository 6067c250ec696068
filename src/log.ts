import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/** JSON lines on stdout; one logger per process, children per concern. */
export function createLogger(level: LogLevel, name = 'precutoff-evidence'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}
