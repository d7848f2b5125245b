// The sandboxed preload: a short allow-list of typed calls, no logic, no Node in the page.
import { contextBridge, ipcRenderer } from 'electron';
import { Channels } from './ipc-schema.ts';

ipcRenderer.on(Channels.enginePort, (event) => {
  // MessagePorts cannot cross the context bridge; hand them to the page with postMessage.
  window.postMessage({ type: Channels.enginePort }, '*', event.ports);
});

contextBridge.exposeInMainWorld('stratify', {
  isDesktop: true,
  connectEngine: () =>
    new Promise<MessagePort>((resolve) => {
      const onMessage = (e: MessageEvent) => {
        if (e.source === window && (e.data as { type?: string })?.type === Channels.enginePort && e.ports[0]) {
          window.removeEventListener('message', onMessage);
          resolve(e.ports[0]);
        }
      };
      window.addEventListener('message', onMessage);
      ipcRenderer.send(Channels.connectEngine);
    }),
  openFileDialog: () => ipcRenderer.invoke(Channels.openDialog),
  saveFile: (name: string, data: Uint8Array | string) => ipcRenderer.invoke(Channels.saveFile, name, data),
  saveProject: (project: unknown) => ipcRenderer.invoke(Channels.saveProject, project),
  loadProject: () => ipcRenderer.invoke(Channels.loadProject),
  onEngineCrashed: (handler: (reason: string) => void) =>
    ipcRenderer.on(Channels.engineCrashed, (_e, reason: string) => handler(String(reason))),
  onMenuCommand: (handler: (command: string) => void) =>
    ipcRenderer.on(Channels.menuCommand, (_e, command: string) => handler(String(command))),
});
