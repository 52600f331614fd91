// The Local sandbox server, built as out/main/localServer.js and run by Electron's
// utilityProcess.fork (see utilityProcessServer.ts). Electron sets process.argv to
// [execPath, this file, ...args], as Node does, so the CLI parses its options unchanged.
import '../../server/cli.ts';
