import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import vueI18n from '@intlify/eslint-plugin-vue-i18n';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'release/**',
      'coverage/**',
      'test-results/**',
      'test-artifacts/**',
      'playwright-report/**',
      '.ci/node/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,vue}', 'test/renderer/**'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] },
    },
  },
  {
    // Every word a user reads comes from i18n/messages: no raw text in templates or in the
    // attributes that are shown or read out. Symbols, units and numbers may stay.
    files: ['renderer/src/**/*.vue'],
    plugins: { '@intlify/vue-i18n': vueI18n },
    rules: {
      '@intlify/vue-i18n/no-raw-text': [
        'error',
        {
          attributes: {
            '/.+/': [
              'label',
              'title',
              'aria-label',
              'aria-description',
              'placeholder',
              'alt',
              'header',
              'summary',
              'detail',
              'empty-message',
              'emptyMessage',
              'on-label',
              'off-label',
              'accept-label',
              'reject-label',
              'legend',
              'caption',
              'message',
              'hint',
              'tooltip',
            ],
          },
          ignorePattern: '^[\\s\\d.,:;()\\[\\]+\\-–—−·•…/|×%°#*=<>!?"\'’]*$',
          ignoreText: ['PlantDesk', 'W', 'kW', 'kWh', 'Wh', 'MW', 'MWh', 'kWp', 'V', 'A', '%', '°'],
        },
      ],
    },
  },
  {
    // InputNumber defaults to the browser's language: NumberInput gives it the app's.
    files: ['renderer/src/**/*.{ts,vue}'],
    ignores: ['renderer/src/components/NumberInput.vue'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'primevue/inputnumber',
              message: 'Use components/NumberInput.vue: it formats in the chosen language.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/cli.ts', 'electron/web/cli.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read JSON answers whose shape is what they assert.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
