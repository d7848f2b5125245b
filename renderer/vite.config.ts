import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  publicDir: fileURLToPath(new URL('../resources', import.meta.url)),
  plugins: [svelte()],
  worker: { format: 'es' },
  build: { outDir: fileURLToPath(new URL('../dist-web', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
