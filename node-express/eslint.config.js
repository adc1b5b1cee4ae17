// ESLint's recommended rules over the service and its tests: ES modules run by Node.js.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import globals from 'globals'

export default defineConfig([
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: globals.node,
    },
    rules: {
      // A leading underscore marks a binding that must exist but is not read: an iteration
      // variable, or the `next` that makes a function Express error middleware.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
])
