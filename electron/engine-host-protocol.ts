/**
 * Messages between the main process and the engine utility process (its parentPort): windows'
 * ports, and the files main lets the engine read where they live.
 */

/** main → engine utility process. */
export type ToEngineHost =
  /** A window's port to the engine is `ports[0]`; a window that connects again replaces its server. */
  | { readonly type: 'connect'; readonly window: number }
  /**
   * Lets window `window`'s engine server read `path` under the token `grant` (no other window's);
   * answered by `granted` or `refused` with `id`.
   */
  | {
      readonly type: 'grant';
      readonly id: number;
      readonly window: number;
      readonly grant: string;
      readonly path: string;
    }
  /** The window closed: its grants end and its server is disposed. */
  | { readonly type: 'revoke'; readonly window: number };

/** engine utility process → main. */
export type FromEngineHost =
  | { readonly type: 'granted'; readonly id: number; readonly size: number }
  | { readonly type: 'refused'; readonly id: number; readonly message: string };

/**
 * The path a packaged app's utility process or worker thread starts from: scripts they start
 * cannot be read from inside app.asar, so electron-builder.yml unpacks them (asarUnpack) and
 * they are started from app.asar.unpacked.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
