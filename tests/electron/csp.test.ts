// One Content-Security-Policy: the header main's app:// handler sends on every response equals
// the <meta> policy in renderer/index.html, and the handler serves only files under the web root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appResponse, CSP } from '../../electron/app-protocol.ts';
import { ROOT } from '../helpers.ts';

/** The directives of a policy, whitespace normalised, in order. */
const directives = (policy: string) =>
  policy
    .split(';')
    .map((d) => d.trim().replace(/\s+/g, ' '))
    .filter(Boolean);

/** The policy of index.html's <meta http-equiv="Content-Security-Policy">. */
function metaPolicy(html: string): string {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(html);
  assert.ok(meta, 'index.html has a CSP <meta>');
  return meta[1]!;
}

/** Serves `file://` URLs from disk, as Electron's net.fetch does. */
const fetchFile = async (url: string) => new Response(await readFile(fileURLToPath(url)));

test("the CSP header of app:// responses equals index.html's <meta> policy", async () => {
  const html = readFileSync(join(ROOT, 'renderer', 'index.html'), 'utf8');
  assert.deepEqual(directives(metaPolicy(html)), directives(CSP));
  const root = mkdtempSync(join(tmpdir(), 'stratify-web-'));
  writeFileSync(join(root, 'index.html'), html);
  const res = await appResponse('app://stratify/index.html', root, fetchFile);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.deepEqual(directives(res.headers.get('content-security-policy')!), directives(metaPolicy(await res.text())));
  // Scripts only from the app; nothing inline or evaluated; no plugins, no <base>.
  const d = new Map(directives(CSP).map((x) => [x.split(' ')[0]!, x.split(' ').slice(1)]));
  assert.deepEqual(d.get('script-src'), ["'self'"]);
  assert.deepEqual(d.get('object-src'), ["'none'"]);
  assert.deepEqual(d.get('base-uri'), ["'none'"]);
  assert.ok(!CSP.includes("'unsafe-eval'"));
});

test('app:// serves only files under the web root, each with the CSP', async () => {
  const base = mkdtempSync(join(tmpdir(), 'stratify-web-'));
  const root = join(base, 'dist-web');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'assets', 'a.js'), 'export {}');
  writeFileSync(join(base, 'secret.txt'), 'secret');
  const js = await appResponse('app://stratify/assets/a.js', root, fetchFile);
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  // An encoded slash would climb out of the root once decoded: refused. (Dot segments, even
  // percent-encoded, are removed by URL parsing before the handler sees the path.)
  for (const url of ['app://stratify/..%2fsecret.txt', 'app://stratify/..%5csecret.txt', 'app://other/assets/a.js']) {
    const r = await appResponse(url, root, fetchFile);
    assert.ok(r.status === 403 || r.status === 404, url);
    assert.notEqual(await r.text(), 'secret', url);
    assert.equal(r.headers.get('content-security-policy'), CSP);
  }
  assert.equal((await appResponse('app://stratify/..%2fsecret.txt', root, fetchFile)).status, 403);
  assert.equal((await appResponse('app://stratify/%2e%2e/secret.txt', root, fetchFile)).status, 404);
  const missing = await appResponse('app://stratify/nope.js', root, fetchFile);
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('content-security-policy'), CSP);
});
