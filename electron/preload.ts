// The sandboxed preload: the contract's API (shared/ipc-contract.ts) over ipcRenderer, no logic
// of its own (electron/preload-install.ts), no Node in the page.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { installPreload } from './preload-install.ts';

installPreload({ contextBridge, ipcRenderer, webUtils }, window);
