// The desktop app's whole engine path, page → preload → main → utility process, run with the
// shell's own code over fakes that enforce Electron's documented rules (fake-electron.ts): the
// engine's port reaches the page, a file chosen in the Open dialog is read by the engine where it
// lives, and the page never receives its bytes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { EngineClient } from '../../engine/runtime/engine-client.ts';
import type { FileGrant } from '../../engine/runtime/engine-protocol.ts';
import { createRng } from '../../engine/util/rng.ts';
import { VCF_FIXED_COLUMNS } from '../../engine/formats/writers.ts';
import { EVENT_CHANNELS, ENGINE_PORT_MESSAGE } from '../../shared/ipc-contract.ts';
import { desktopEnginePort } from '../../renderer/src/engine/desktop-port.ts';
import { messagePortPort } from '../../renderer/src/engine/ports.ts';
import { ROOT } from '../helpers.ts';
import { acrossBridge, closeAllPorts, deliveriesDone } from './fake-electron.ts';
import { desktop as desktopWith } from './desktop-fixture.ts';

const EXAMPLE = join(ROOT, 'resources', 'examples', 'nancycats.str');

after(closeAllPorts);

/** The desktop app whose Open dialog answers `paths`. */
const desktop = (paths: () => string[] | null) => desktopWith({ open: paths() });

test('the context bridge fake follows Electron: ports and other transferables do not cross; values are copied, functions proxied', async () => {
  const { port1 } = new MessageChannel();
  after(() => port1.close());
  // The shape of the old preload's API: a promise of a MessagePort as the return value.
  const old = acrossBridge({ connectEngine: () => Promise.resolve(port1) }) as { connectEngine(): Promise<unknown> };
  await assert.rejects(old.connectEngine(), /transfer/i, 'a MessagePort cannot be a bridged result');
  const api = acrossBridge({
    n: 1,
    nested: { list: [1, 'a'], promise: Promise.resolve(1), sym: Symbol('x') },
    bytes: new Uint8Array([1, 2]),
    echo: (x: unknown) => x,
    boom: () => {
      throw new TypeError('no');
    },
  }) as {
    n: number;
    nested: { list: unknown[]; promise?: unknown; sym?: unknown };
    bytes: Uint8Array;
    echo(x: unknown): unknown;
    boom(): void;
  };
  assert.equal(api.n, 1);
  assert.ok(Object.isFrozen(api) && Object.isFrozen(api.nested.list));
  assert.equal(api.nested.promise, undefined, 'nested promises are dropped');
  assert.equal(api.nested.sym, undefined, 'symbols are dropped');
  assert.deepEqual([...api.bytes], [1, 2]);
  const obj = { a: 1 };
  assert.notEqual(api.echo(obj), obj, 'arguments and results are copies');
  assert.throws(() => api.echo(port1), /transfer/i, 'a MessagePort cannot be a bridged argument');
  assert.throws(
    () => api.boom(),
    (e: Error) => e.message === 'no' && e.constructor === Error,
  );
});

test('page → preload → main → utility process: the port arrives by window message and a request is answered', async () => {
  const app = desktop(() => [EXAMPLE]);
  const client = await app.connect();
  assert.deepEqual(await client.call('held', []).result, { datasets: 0, sweeps: 0 });
  assert.equal(app.utility.forked.length, 1);
  assert.equal(
    app.utility.forked[0],
    '/opt/Stratify/resources/app.asar.unpacked/dist-electron/engine-host-entry.mjs',
    'the utility process starts from the unpacked entry',
  );
  const portMessages = app.win.delivered.filter((d) => (d.data as { type?: string }).type === ENGINE_PORT_MESSAGE);
  assert.equal(portMessages.length, 1);
  assert.equal(portMessages[0]!.ports.length, 1);
  client.dispose();
});

test('a file chosen in the Open dialog is granted and streamed by the engine; the page never gets its bytes', async () => {
  const app = desktop(() => [EXAMPLE]);
  const client = await app.connect();
  const grants = (await app.api.openFileDialog())!;
  assert.equal(grants.length, 1);
  assert.deepEqual(Object.keys(grants[0]!).sort(), ['grant', 'name', 'path', 'size']);
  assert.equal(grants[0]!.name, 'nancycats.str');
  assert.equal(grants[0]!.size, statSync(EXAMPLE).size);
  assert.deepEqual(app.recent, [EXAMPLE]);
  const info = await client.call('openDataset', [grants, {}]).result;
  assert.equal(info.summary.individuals, 237);
  assert.equal(info.summary.loci, 9);
  const preview = await client.call('previewFile', [grants[0]!]).result;
  assert.match(preview, /^\s*\S+/);
  // A grant the engine never heard of (made up in the page) is refused.
  const forged: FileGrant = { ...grants[0]!, grant: 'not-a-grant', path: '/etc/passwd' };
  await assert.rejects(client.call('openDataset', [[forged], {}]).result, /did not open this file/);
  // A dropped file that has gone is refused by the host with the path named.
  await assert.rejects(
    app.api.grantFiles([app.files.drop('/nonexistent/x.vcf')]),
    /\/nonexistent\/x\.vcf: no such file/,
  );
  client.dispose();
});

test('PLINK: the .bed is granted and its .bim/.fam are found beside it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-grant-'));
  // 3 individuals × 2 SNPs (PLINK 1 .bed, SNP-major).
  writeFileSync(join(dir, 'd.fam'), 'f a 0 0 0 -9\nf b 0 0 0 -9\nf c 0 0 0 -9\n');
  writeFileSync(join(dir, 'd.bim'), '1 rs1 0 100 A G\n1 rs2 0 200 C T\n');
  writeFileSync(join(dir, 'd.bed'), Uint8Array.from([0x6c, 0x1b, 0x01, 0b00111100, 0b00000011]));
  const app = desktop(() => [join(dir, 'd.fam'), join(dir, 'd.bed')]);
  const client = await app.connect();
  const grants = (await app.api.openFileDialog())!;
  assert.deepEqual(
    grants.map((g) => g.name),
    ['d.bed', 'd.fam'],
    'the main file first',
  );
  const info = await client.call('openDataset', [grants, {}]).result;
  assert.equal(info.summary.individuals, 3);
  assert.deepEqual(info.loci, ['rs1', 'rs2']);
  client.dispose();
});

test('only the app page may connect; the page takes the port only from its own window', async () => {
  const app = desktop(() => null);
  app.ipc.setFrameUrl('https://example.org/');
  app.api.requestEnginePort();
  await deliveriesDone();
  assert.equal(app.utility.forked.length, 0, 'an untrusted page gets no engine');
  assert.equal(app.win.delivered.length, 0);
  app.ipc.setFrameUrl('app://stratify/index.html');
  // A frame's message that looks like the port message is ignored; the real one is taken.
  const { port1: fakePort, port2: fakeOther } = new MessageChannel();
  after(() => fakeOther.close());
  let settled = false;
  const got = desktopEnginePort({ requestEnginePort: () => undefined }, app.win).then((p) => {
    settled = true;
    return p;
  });
  app.win.dispatch({ type: ENGINE_PORT_MESSAGE }, '*', [fakePort], { frame: true });
  await deliveriesDone();
  assert.equal(settled, false, 'a message from another source is not taken');
  app.api.requestEnginePort();
  const port = await got;
  const client = new EngineClient(messagePortPort(port));
  assert.deepEqual(await client.call('held', []).result, { datasets: 0, sweeps: 0 });
  client.dispose();
});

test('an engine that dies is restarted: the window is told, reconnects, and its granted files read again', async () => {
  const app = desktop(() => [EXAMPLE]);
  let client = await app.connect();
  const grants = (await app.api.openFileDialog())!;
  await client.call('openDataset', [grants, {}]).result;
  const crashed = new Promise<string>((resolve) => app.api.onEngineCrashed(resolve));
  app.utility.children[0]!.kill();
  assert.match(await crashed, /exited with code 137/);
  assert.ok(app.ipc.webContents.sent.some((s) => s.channel === EVENT_CHANNELS.engineCrashed));
  client.dispose();
  client = await app.connect();
  assert.equal(app.utility.forked.length, 2, 'a new utility process');
  const info = await client.call('openDataset', [grants, {}]).result;
  assert.equal(info.summary.individuals, 237);
  client.dispose();
  app.engine.dispose();
});

/** A VCF.gz of `variants` × `samples` biallelic SNPs (random genotypes, 1 % missing). */
function writeVcfGz(path: string, variants: number, samples: number): void {
  const rng = createRng(7);
  const lines = [
    '##fileformat=VCFv4.2',
    [...VCF_FIXED_COLUMNS, ...Array.from({ length: samples }, (_, s) => `S${s}`)].join('\t'),
  ];
  for (let v = 0; v < variants; v++) {
    const p = 0.1 + 0.8 * rng.uniform();
    const cells = Array.from({ length: samples }, () =>
      rng.uniform() < 0.01 ? './.' : `${rng.uniform() < p ? 1 : 0}/${rng.uniform() < p ? 1 : 0}`,
    );
    lines.push(`1\t${100 + v}\trs${v}\tA\tG\t.\tPASS\t.\tGT\t${cells.join('\t')}`);
  }
  writeFileSync(path, gzipSync(lines.join('\n') + '\n', { level: 1 }));
}

test('a large VCF.gz opened through the host: what the page receives does not grow with the genotypes', async () => {
  // Two files with the same individuals and markers ×4 genotypes... the page's share must not scale
  // with N × L: it gets the summary (per-locus and per-individual figures, names), not the data.
  const dir = mkdtempSync(join(tmpdir(), 'stratify-large-'));
  const received = async (variants: number, samples: number) => {
    const path = join(dir, `x${variants}x${samples}.vcf.gz`);
    writeVcfGz(path, variants, samples);
    const app = desktop(() => [path]);
    const raw = await desktopEnginePort(app.api, app.win);
    let bytes = 0;
    raw.addEventListener('message', (e) => {
      bytes += serialize((e as MessageEvent).data).length;
    });
    const client = new EngineClient(messagePortPort(raw));
    const grants = (await app.api.openFileDialog())!;
    bytes += serialize(grants).length;
    const info = await client.call('openDataset', [grants, {}]).result;
    assert.equal(info.summary.individuals, samples);
    assert.equal(info.loci.length, variants);
    client.dispose();
    return { bytes, file: statSync(path).size, genotypes: variants * samples };
  };
  const small = await received(2_000, 50);
  const wide = await received(2_000, 800);
  // 16 × the genotypes (and a 16 × larger file), 16 × the individuals: the page's bytes grow with N + L.
  assert.ok(wide.file > 10 * small.file, `the file grows (${small.file} → ${wide.file} bytes)`);
  assert.ok(wide.bytes < 2 * small.bytes + 800 * 64, `page received ${small.bytes} → ${wide.bytes} bytes`);
  assert.ok(wide.bytes < wide.file / 4, `page received ${wide.bytes} bytes of a ${wide.file}-byte file`);
});
