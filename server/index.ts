export {
  startServer,
  createServer,
  type RunningServer,
  type StartServerOptions,
} from './server.ts';
