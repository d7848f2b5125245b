// Main process: wiring only. Windows, menus, dialogs, files and IPC; the engine runs in a
// utility process (engine-host.ts) and the page talks to it over a MessagePort. Files the user
// opens are read by the engine where they live: main grants it their paths, the page gets a
// summary, never the bytes.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  MessageChannelMain,
  net,
  protocol,
  screen,
  session,
  utilityProcess,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
} from 'electron';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_ORIGIN, APP_SCHEME, appResponse } from './app-protocol.ts';
import { guardAllWebContents, refusePermissions, windowPreferences } from './hardening.ts';
import { EngineHost } from './engine-host.ts';
import { addRecent, genotypePathsIn, readJson, writeFileAtomic } from './files.ts';
import { EVENT_CHANNELS, isTrustedSender, type EventContract, type MenuCommand } from '../shared/ipc-contract.ts';
import { registerMainIpc } from './main-ipc.ts';
import { DEFAULT_WINDOW, restoreWindowState, type WindowState } from './window-state.ts';

const HERE = __dirname;
const WEB_ROOT = join(HERE, '..', 'dist-web');
const STATE_FILE = () => join(app.getPath('userData'), 'window-state.json');
const RECENT_FILE = () => join(app.getPath('userData'), 'recent-files.json');
const AUTOSAVE_FILE = () => join(app.getPath('userData'), 'autosave.stratify.json');
/** The largest session file main reads (sessions embed results, not datasets opened by path). */
const MAX_SESSION_BYTES = 512 * 1024 ** 2;

// The smoke test (tests/electron-smoke) runs the app with a user-data folder of its own.
if (process.env.STRATIFY_USER_DATA) app.setPath('userData', process.env.STRATIFY_USER_DATA);

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const engine = new EngineHost(
  {
    fork: (modulePath) => utilityProcess.fork(modulePath, [], { serviceName: 'Stratify engine', stdio: 'inherit' }),
    channel: () => new MessageChannelMain(),
  },
  HERE,
);
let mainWindow: BrowserWindow | undefined;

/** Calls only from the app's own main frame. */
function trusted(e: IpcMainInvokeEvent | IpcMainEvent): boolean {
  return isTrustedSender(e.senderFrame?.url ?? '', e.senderFrame === e.sender.mainFrame);
}

/** Sends an event of the contract to the page. */
function sendEvent<K extends keyof EventContract>(key: K, payload: EventContract[K]): void {
  mainWindow?.webContents.send(EVENT_CHANNELS[key], payload);
}

/** Paths asked to open before the window was ready (macOS open-file, argv). */
const pendingPaths: string[] = [];

/** Opens files by path in the page (with PLINK companions) and remembers them as recent. */
async function openPaths(paths: readonly string[]): Promise<void> {
  if (!mainWindow || mainWindow.webContents.isLoading()) {
    pendingPaths.push(...paths);
    return;
  }
  for (const p of paths) {
    try {
      sendEvent('openFiles', await engine.grantFiles([p], mainWindow.webContents));
      await rememberRecent(p);
    } catch (e) {
      dialog.showErrorBox('Could not open the file', `${p}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

async function rememberRecent(path: string): Promise<void> {
  const recent = await readJson<string[]>(RECENT_FILE(), []);
  await writeFileAtomic(RECENT_FILE(), JSON.stringify(addRecent(recent, path)));
  void buildMenu();
}

async function createWindow(): Promise<void> {
  const saved = await readJson<Partial<WindowState>>(STATE_FILE(), DEFAULT_WINDOW);
  const state = restoreWindowState(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...state,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Stratify',
    icon: join(WEB_ROOT, 'icons', 'icon.png'),
    webPreferences: windowPreferences(join(HERE, 'preload.cjs'), app.isPackaged),
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    void writeFileAtomic(STATE_FILE(), JSON.stringify({ ...b, maximized: win.isMaximized() }));
  });
  // The page refuses to unload while a sweep runs; Electron shows no dialog of its own, so ask here.
  win.webContents.on('will-prevent-unload', (e) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Stop the sweep and leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      title: 'A sweep is running',
      message: 'A clustering sweep is running. Leaving stops it, and its results so far are lost.',
    });
    if (choice === 0) e.preventDefault();
  });
  mainWindow = win;
  await win.loadURL(`${APP_ORIGIN}/index.html`);
  if (pendingPaths.length) void openPaths(pendingPaths.splice(0));
}

function sendMenu(command: MenuCommand): void {
  sendEvent('menuCommand', command);
}

async function buildMenu(): Promise<void> {
  const recent = await readJson<string[]>(RECENT_FILE(), []);
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Open Genotype File…', accelerator: 'CmdOrCtrl+O', click: () => sendMenu('open') },
        {
          label: 'Open Recent',
          submenu: recent.length
            ? recent.map((p) => ({ label: p, click: () => void openPaths([p]) }))
            : [{ label: 'No recent files', enabled: false }],
        },
        { type: 'separator' },
        { label: 'Save Session', accelerator: 'CmdOrCtrl+S', click: () => sendMenu('save-session') },
        { label: 'Open Session…', accelerator: 'CmdOrCtrl+Shift+O', click: () => sendMenu('open-session') },
        { type: 'separator' },
        { label: 'Export Plot…', accelerator: 'CmdOrCtrl+E', click: () => sendMenu('export-plot') },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'Edit', submenu: [{ role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    {
      label: 'Analysis',
      submenu: [
        { label: 'Run Clustering', accelerator: 'CmdOrCtrl+R', click: () => sendMenu('run') },
        { label: 'Cancel Run', accelerator: 'Escape', click: () => sendMenu('cancel') },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function registerIpc(): void {
  registerMainIpc<IpcMainEvent | IpcMainInvokeEvent>({
    ipcMain,
    engine,
    trusted,
    contentsOf: (e) => e.sender,
    showOpenDialog: async () => {
      const r = await dialog.showOpenDialog({
        properties: ['openFile', 'multiSelections'],
        filters: [
          {
            name: 'Genotype files',
            extensions: ['str', 'stru', 'txt', 'gen', 'vcf', 'gz', 'ped', 'map', 'bed', 'bim', 'fam', 'csv', 'tsv'],
          },
        ],
      });
      return r.canceled ? null : r.filePaths;
    },
    showOpenSessionDialog: async () => {
      const r = await dialog.showOpenDialog({
        properties: ['openFile'],
        filters: [{ name: 'Stratify sessions', extensions: ['json'] }],
      });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    showSaveDialog: async (name) => {
      const r = await dialog.showSaveDialog({ defaultPath: name });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    readSession: async (path) => {
      if ((await stat(path)).size > MAX_SESSION_BYTES) throw new Error(`${path}: larger than a session can be`);
      return readFile(path, 'utf8');
    },
    writeFile: writeFileAtomic,
    autosave: {
      read: () => readFile(AUTOSAVE_FILE(), 'utf8').catch(() => null),
      write: (text) => writeFileAtomic(AUTOSAVE_FILE(), text),
    },
    rememberRecent,
  });
}

function serveApp(): void {
  // The CSP travels on each response (webRequest.onHeadersReceived does not see protocol.handle's).
  protocol.handle(APP_SCHEME, (request) => appResponse(request.url, WEB_ROOT, (url) => net.fetch(url)));
  refusePermissions(session.defaultSession);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Every web contents, not only the main window's: no navigation away, no webviews, no new windows.
  guardAllWebContents(app);
  // File associations: macOS sends open-file; Windows and Linux start us (or a second instance)
  // with the path among the arguments.
  app.on('open-file', (e, path) => {
    e.preventDefault();
    void openPaths([path]);
  });
  pendingPaths.push(...genotypePathsIn(process.argv.slice(1)));
  app.on('second-instance', (_e, argv) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    void openPaths(genotypePathsIn(argv.slice(1)));
  });
  app
    .whenReady()
    .then(async () => {
      serveApp();
      registerIpc();
      await buildMenu();
      await createWindow();
    })
    .catch((e: unknown) => {
      dialog.showErrorBox('Stratify could not start', e instanceof Error ? e.message : String(e));
      app.quit();
    });
  app.on('window-all-closed', () => {
    engine.dispose();
    app.quit();
  });
}
