// The real Local sandbox entry (electron/main/localServerEntry.ts) under plain Node, with a
// stand-in for Electron's process.parentPort: each line on stdin arrives as a message's data.
import { EventEmitter } from 'node:events';

const parentPort = new EventEmitter();
Object.assign(process, { parentPort });
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  for (const line of text.split('\n').filter(Boolean)) parentPort.emit('message', { data: line });
});
await import('../../electron/main/localServerEntry.ts');
