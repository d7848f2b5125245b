// The sandboxed preload: the contract's API (electron/ipc-schema.ts) over ipcRenderer, no logic,
// no Node in the page.
import { contextBridge, ipcRenderer } from 'electron';
import { desktopApi, ENGINE_CHANNELS } from './ipc-schema.ts';

ipcRenderer.on(ENGINE_CHANNELS.port, (event) => {
  // MessagePorts cannot cross the context bridge; hand them to the page with postMessage.
  window.postMessage({ type: ENGINE_CHANNELS.port }, '*', event.ports);
});

const connectEngine = () =>
  new Promise<MessagePort>((resolve) => {
    const onMessage = (e: MessageEvent) => {
      if (e.source === window && (e.data as { type?: string })?.type === ENGINE_CHANNELS.port && e.ports[0]) {
        window.removeEventListener('message', onMessage);
        resolve(e.ports[0]);
      }
    };
    window.addEventListener('message', onMessage);
    ipcRenderer.send(ENGINE_CHANNELS.connect);
  });

contextBridge.exposeInMainWorld('stratify', desktopApi(ipcRenderer, connectEngine));
