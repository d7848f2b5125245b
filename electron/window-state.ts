/** Window bounds remembered between sessions. */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { width: 1280, height: 860, maximized: false };

/** Keeps a saved state only if it is sane and still lies on one of the displays. */
export function restoreWindowState(
  saved: Partial<WindowState> | undefined,
  displays: readonly { x: number; y: number; width: number; height: number }[],
): WindowState {
  if (!saved || typeof saved.width !== 'number' || typeof saved.height !== 'number') return DEFAULT_WINDOW;
  const width = Math.max(640, Math.min(saved.width, 10000));
  const height = Math.max(480, Math.min(saved.height, 10000));
  const onScreen =
    typeof saved.x === 'number' &&
    typeof saved.y === 'number' &&
    displays.some(
      (d) => saved.x! + 50 > d.x && saved.x! < d.x + d.width - 50 && saved.y! >= d.y && saved.y! < d.y + d.height - 50,
    );
  return { width, height, maximized: saved.maximized === true, ...(onScreen ? { x: saved.x!, y: saved.y! } : {}) };
}
