// The desktop app assembled from its own parts — main's IPC, the preload, the page's window and
// the engine utility process — over fakes of Electron (fake-electron.ts). Dialogs answer what a
// test sets; the host's disk access is counted, so a test can say which paths were ever touched.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { EngineClient } from '../../engine/runtime/engine-client.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { EngineHost } from '../../electron/engine-host.ts';
import { serveEngineHost, type HostFiles, type ParentPortLike } from '../../electron/engine-host-serve.ts';
import { installPreload } from '../../electron/preload-install.ts';
import { registerMainIpc } from '../../electron/main-ipc.ts';
import { isTrustedSender, type DesktopApi } from '../../shared/ipc-contract.ts';
import { desktopEnginePort } from '../../renderer/src/engine/desktop-port.ts';
import { messagePortPort } from '../../renderer/src/engine/ports.ts';
import {
  fakeContextBridge,
  fakeIpc,
  fakeMessageChannelMain,
  fakeUtilityProcess,
  fakeWebUtils,
  FakeWindow,
  type FakeIpcEvent,
} from './fake-electron.ts';

/** Every path the engine host stat'ed or opened as a dataset, in order. */
export function countingDisk(): HostFiles & { touched: string[] } {
  const touched: string[] = [];
  return {
    touched,
    stat: (path) => {
      touched.push(path);
      return statSync(path);
    },
    dataset: (path) => {
      touched.push(path);
      return datasetFiles(path);
    },
  };
}

/** What main's dialogs answer next (null: cancelled). */
export interface Dialogs {
  open: string[] | null;
  openSession: string | null;
  save: string | null;
}

/** A shared engine host (one utility process) that several windows may use. */
export function engineHost(disk: HostFiles = countingDisk()) {
  const utility = fakeUtilityProcess((_path, parentPort) => {
    serveEngineHost(parentPort as ParentPortLike, () => new StartPool(spawnInProcess, 1), undefined, disk);
  });
  const engine = new EngineHost(
    { fork: utility.fork, channel: fakeMessageChannelMain },
    '/opt/Stratify/resources/app.asar/dist-electron',
  );
  return { engine, utility };
}

/** One window of the app: main's IPC for it, its preload and its page. */
export function desktopWindow(host: ReturnType<typeof engineHost>, dialogs: Partial<Dialogs> = {}, windowId = 1) {
  const ipc = fakeIpc('app://stratify/index.html', windowId);
  const bridge = fakeContextBridge();
  const win = new FakeWindow();
  const files = fakeWebUtils();
  const answer: Dialogs = { open: null, openSession: null, save: null, ...dialogs };
  const recent: string[] = [];
  const written = new Map<string, string | Uint8Array>();
  let autosaved: string | null = null;
  registerMainIpc<FakeIpcEvent>({
    ipcMain: ipc.ipcMain,
    engine: host.engine,
    trusted: (e) => isTrustedSender(e.senderFrame.url, true),
    contentsOf: (e) => e.sender,
    showOpenDialog: async () => answer.open,
    showOpenSessionDialog: async () => answer.openSession,
    showSaveDialog: async () => answer.save,
    readSession: (path) => readFile(path, 'utf8'),
    writeFile: async (path, data) => void written.set(path, data),
    autosave: { read: async () => autosaved, write: async (text) => void (autosaved = text) },
    rememberRecent: async (p) => void recent.push(p),
  });
  installPreload({ contextBridge: bridge.contextBridge, ipcRenderer: ipc.ipcRenderer, webUtils: files.webUtils }, win);
  const api = bridge.mainWorld.stratify as DesktopApi;
  const connect = async () => new EngineClient(messagePortPort(await desktopEnginePort(api, win)));
  return {
    ipc,
    win,
    api,
    files,
    answer,
    recent,
    written,
    autosaved: () => autosaved,
    connect,
    ...host,
  };
}

/** The app with one window (the common case). */
export function desktop(dialogs: Partial<Dialogs> = {}, disk?: HostFiles) {
  return desktopWindow(engineHost(disk), dialogs);
}
