// Main process: wiring only. Windows, menus, dialogs, files and IPC; the engine runs in a
// utility process (engine-host.ts) and the page talks to it over a MessagePort.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  protocol,
  screen,
  session,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
} from 'electron';
import { readFile } from 'node:fs/promises';
import { basename, join, normalize, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineHost } from './engine-host.ts';
import { addRecent, filesForOpening, genotypePathsIn, readJson, writeFileAtomic } from './files.ts';
import {
  ENGINE_CHANNELS,
  EVENT_CHANNELS,
  isTrustedSender,
  registerInvokeHandlers,
  type EventContract,
  type MenuCommand,
} from './ipc-schema.ts';
import { DEFAULT_WINDOW, restoreWindowState, type WindowState } from './window-state.ts';

const HERE = __dirname;
const WEB_ROOT = join(HERE, '..', 'dist-web');
const STATE_FILE = () => join(app.getPath('userData'), 'window-state.json');
const RECENT_FILE = () => join(app.getPath('userData'), 'recent-files.json');
const CSP =
  "default-src 'self'; script-src 'self'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const engine = new EngineHost(HERE);
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
      sendEvent('openFiles', await filesForOpening(p));
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
    icon: join(HERE, '..', 'resources', 'icons', 'icon.png'),
    webPreferences: {
      preload: join(HERE, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    void writeFileAtomic(STATE_FILE(), JSON.stringify({ ...b, maximized: win.isMaximized() }));
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (e, url) => {
    if (!url.startsWith('app://stratify/')) e.preventDefault();
  });
  mainWindow = win;
  await win.loadURL('app://stratify/index.html');
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
        { label: 'Save Project', accelerator: 'CmdOrCtrl+S', click: () => sendMenu('save-project') },
        { label: 'Open Project…', accelerator: 'CmdOrCtrl+Shift+O', click: () => sendMenu('open-project') },
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
  ipcMain.on(ENGINE_CHANNELS.connect, (e) => {
    if (trusted(e)) engine.connect(e.sender);
  });
  registerInvokeHandlers(
    ipcMain,
    {
      openDialog: async () => {
        const r = await dialog.showOpenDialog({
          properties: ['openFile', 'multiSelections'],
          filters: [
            {
              name: 'Genotype files',
              extensions: ['str', 'stru', 'txt', 'gen', 'vcf', 'gz', 'ped', 'map', 'bed', 'bim', 'fam', 'csv', 'tsv'],
            },
          ],
        });
        if (r.canceled) return null;
        await rememberRecent(r.filePaths[0]!);
        return Promise.all(
          r.filePaths.map(async (p) => ({ name: basename(p), bytes: new Uint8Array(await readFile(p)) })),
        );
      },
      saveFile: async (fileName, content) => {
        const r = await dialog.showSaveDialog({ defaultPath: fileName });
        if (r.canceled || !r.filePath) return null;
        await writeFileAtomic(r.filePath, content);
        return r.filePath;
      },
    },
    trusted,
  );
}

function serveApp(): void {
  protocol.handle('app', (request) => {
    const url = new URL(request.url);
    const path = normalize(join(WEB_ROOT, decodeURIComponent(url.pathname)));
    if (relative(WEB_ROOT, path).startsWith('..')) return new Response('forbidden', { status: 403 });
    return net.fetch(pathToFileURL(path).toString());
  });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
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
  app.whenReady().then(async () => {
    serveApp();
    registerIpc();
    await buildMenu();
    await createWindow();
  });
  app.on('window-all-closed', () => {
    engine.dispose();
    app.quit();
  });
}
