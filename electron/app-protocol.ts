import { extname, join, normalize, relative, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The app's pages are served from this origin (a privileged standard scheme, see main.ts). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'stratify';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The Content-Security-Policy of every page: sent as a header on each app:// response and
 * repeated in renderer/index.html's <meta> (a test compares the two), so the same policy applies
 * whichever a reader looks at. Scripts and workers only from the app itself; no plugins, no
 * <base>, no form posts; inline styles for the charts' computed positions.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
};

/**
 * The answer to an app:// request: the file under `webRoot` it names, with the CSP header and a
 * content type; 403 for a path outside `webRoot` or another host, 404 for a missing file.
 * `fetchFile` reads a file:// URL (Electron's net.fetch in main).
 */
export async function appResponse(
  requestUrl: string,
  webRoot: string,
  fetchFile: (fileUrl: string) => Promise<Response>,
): Promise<Response> {
  const url = new URL(requestUrl);
  const headers = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' };
  if (url.host !== APP_HOST) return new Response('forbidden', { status: 403, headers });
  const path = normalize(join(webRoot, decodeURIComponent(url.pathname)));
  const rel = relative(webRoot, path);
  if (rel.startsWith('..') || isAbsolute(rel)) return new Response('forbidden', { status: 403, headers });
  let res: Response;
  try {
    res = await fetchFile(pathToFileURL(path).toString());
  } catch {
    return new Response('not found', { status: 404, headers });
  }
  if (!res.ok) return new Response('not found', { status: 404, headers });
  return new Response(res.body, {
    status: 200,
    headers: { ...headers, 'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' },
  });
}
