/**
 * Fakes the unit and integration tests share. One recording logger: every line the code
 * under test logs, with its level, in order.
 */
import type { Logger } from '../../src/runner.js';

export type LogLevel = 'info' | 'debug' | 'notice' | 'warning' | 'error';

export interface LogLine {
  level: LogLevel;
  message: string;
}

/** A `Logger` that keeps every line; `text()` is the log as `level: message` lines. */
export function recordingLogger(): Logger & {
  lines: LogLine[];
  text(): string;
  messages(level: LogLevel): string[];
} {
  const lines: LogLine[] = [];
  const push = (level: LogLevel) => (message: string) => {
    lines.push({ level, message });
  };
  return {
    lines,
    text: () => lines.map((l) => `${l.level}: ${l.message}`).join('\n'),
    messages: (level) => lines.filter((l) => l.level === level).map((l) => l.message),
    info: push('info'),
    debug: push('debug'),
    notice: push('notice'),
    warning: push('warning'),
    error: push('error'),
  };
}
