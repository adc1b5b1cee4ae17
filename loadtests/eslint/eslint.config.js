// ESLint's recommended rules over the runner's JavaScript, as node-express lints its own, with the
// globals of where each file runs. `./bench test` runs it from loadtests/ with --config, so the
// patterns below are relative to loadtests/.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import globals from 'globals'

export default defineConfig([
  js.configs.recommended,
  {
    // The results page's script: a classic script in the browser, after Chart.js's UMD build
    // (index.html), which defines the global Chart.
    files: ['bench/report/site_assets/site.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'script',
      globals: { ...globals.browser, Chart: 'readonly' },
    },
  },
  {
    // The k6 scenarios: ES modules run by k6, whose globals are neither a browser's nor Node's.
    files: ['k6/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly', console: 'readonly' },
    },
  },
])
