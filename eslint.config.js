// Lint rules kept to what catches real defects: typescript-eslint's recommended set,
// type-only imports kept explicit, and node: specifiers for built-ins.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', {
        paths: ['fs', 'fs/promises', 'path', 'crypto', 'http', 'https', 'os', 'url', 'util', 'events', 'stream', 'zlib', 'child_process', 'net', 'readline', 'worker_threads', 'module', 'assert']
          .map((name) => ({ name, message: 'Use the node: specifier.' })),
      }],
    },
  },
);
