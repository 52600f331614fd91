// Loaded with --import into every stand-in utility process: Electron's `process.parentPort`
// over Node's IPC channel. Messages arrive as `{ data, ports }`, as a MessagePortMain delivers
// them; the channel does not keep the process alive (a utility process lives by its own work).
import { EventEmitter } from 'node:events';

class ParentPort extends EventEmitter {
  postMessage(message: unknown): void {
    process.send?.(message);
  }
  start(): void {}
  close(): void {}
}

const parentPort = new ParentPort();
Object.defineProperty(process, 'parentPort', { value: parentPort, enumerable: false });
process.on('message', (data: unknown) => parentPort.emit('message', { data, ports: [] }));
process.channel?.unref();
