import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev --workspace frontend` serves the admin with hot reload and sends
// /api and /demo to a running `npm start` (the gateway on port 3000).
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The gateway serves dist/assets with long cache lifetimes; names carry a content hash.
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': gateway, '/demo': gateway },
  },
});
