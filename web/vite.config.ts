import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The built app is served by the service at "/"; in development Vite proxies the API to a running service.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.GATEHOUSE_URL ?? "http://localhost:3000", changeOrigin: false } },
  },
});
