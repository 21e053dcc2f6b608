import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

// The server (apps/server) serves apps/web/dist at /, and /api/* and the catalogue's pictures
// (/catalogue-assets/*) on the same origin; in development vite plays that role and forwards both to
// the server (without the pictures, product details showed its options without them: e2e/tests/dev-server.test.ts).
const apiTarget = process.env.PORTAL_API_URL ?? 'http://localhost:8080';
const proxy = {
  '/api': { target: apiTarget, changeOrigin: true },
  '/catalogue-assets': { target: apiTarget, changeOrigin: true },
};

// `vite build --mode e2e` (npm run build:e2e) makes the e2e tests' build in dist-e2e: the same app plus the
// test hook (features/works-table/components/test-hook.ts), which the production build in dist never holds.
export default defineConfig(({ mode }) => ({
  root,
  // precompress: .br and .gz beside each file of dist, served as they are (apps/server app.ts).
  plugins: [react(), precompress()],
  server: { port: 5173, proxy },
  preview: { proxy },
  build: {
    outDir: mode === 'e2e' ? 'dist-e2e' : 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // antd changes less often than our code: its own chunk stays cached across releases.
        // No catch-all vendor group: it would pull libraries used only by lazy pages into the
        // first load. Higher priority wins when a module matches several groups.
        codeSplitting: {
          groups: [
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/, priority: 30 },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack[\\/](react-query|query-core))[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
}));
