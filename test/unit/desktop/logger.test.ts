import { expect, test } from 'vitest';
import { problemsOnly, type Logger } from '../../../electron/services/logger.ts';

test('problemsOnly passes warnings and errors on and drops info lines', () => {
  const lines: unknown[][] = [];
  const log: Logger = {
    info: (...args) => void lines.push(['info', ...args]),
    warn: (...args) => void lines.push(['warn', ...args]),
    error: (...args) => void lines.push(['error', ...args]),
  };
  const quiet = problemsOnly(log);
  quiet.info('GET /plants 200', { status: 200 });
  quiet.warn('GET /plants 503', { status: 503 });
  quiet.error('boom');
  expect(lines).toEqual([
    ['warn', 'GET /plants 503', { status: 503 }],
    ['error', 'boom', undefined],
  ]);
});
