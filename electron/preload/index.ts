import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './api.ts';

// Sandboxed preload: built as one CommonJS file (a sandboxed preload can require only
// 'electron'), with contextIsolation so the page sees a frozen copy of this object and nothing
// else of Electron.
contextBridge.exposeInMainWorld('plantdesk', createPreloadApi(ipcRenderer));
