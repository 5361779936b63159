import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// `npm run dev --workspace frontend` serves the admin with hot reload and sends
// /api and /demo to a running `npm start` (the gateway on port 3000).
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  // @ratesmith/contracts/filters is bundled from its TypeScript source (proto/package.json exports).
  resolve: { conditions: ['ratesmith-source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Asset names carry a content hash, so a new build never meets a stale cached file.
    assetsDir: 'assets',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each screen loads (read by `npm run size`).
    manifest: true,
  },
  server: {
    proxy: { '/api': gateway, '/demo': gateway },
  },
});
