// The Local sandbox server, built as out/main/localServer.js and run by Electron's
// utilityProcess.fork (see utilityProcessServer.ts). Electron sets process.argv to
// [execPath, this file, ...args], as Node does, so the CLI parses its options unchanged.
import { shutdownRequest } from '../../server/shutdownRequest.ts';
import { stopOnParentMessage } from './parentPortStop.ts';
import '../../server/cli.ts';

// The app's graceful stop: a utility process cannot be sent SIGTERM (see shutdownRequest.ts).
stopOnParentMessage(process.parentPort, () => shutdownRequest.request());
