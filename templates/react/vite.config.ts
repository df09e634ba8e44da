/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import pipeline from 'pipeline-tool/vite';
import { defineConfig } from 'vite';

// pipeline() runs the app inside pipeline-tool's emulated host while `npm run dev` serves it, and
// builds a bundle the marketplace accepts, checked by pipeline-tool validate (docs: its README).
export default defineConfig({
  plugins: [react(), pipeline()],
  test: { environment: 'jsdom', testTimeout: 30_000 },
});
