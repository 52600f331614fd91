import { describe, expect, test } from 'vitest';
import { PlantDeskPreset } from '../../renderer/src/theme.ts';

/**
 * The preset's colours meet WCAG 2.1 AA's 4.5:1 for text, in the light and the dark scheme: the
 * primary colour as text and under white button text, each severity's button fill, text and
 * outlined colour, message text, muted text on a toggle's grey, and the app's status colours.
 * The tokens are resolved as PrimeVue does (`{green.700}`, `{text.muted.color}`); the
 * end-to-end accessibility spec measures the rendered screens.
 */

type Scheme = 'light' | 'dark';
type Tokens = { [key: string]: unknown };

const preset = PlantDeskPreset as unknown as {
  primitive: Tokens;
  semantic: Tokens & { colorScheme: Record<Scheme, Tokens> };
  components: Record<string, { colorScheme: Record<Scheme, Tokens> }>;
};

/** The value at `path` in `tokens`, where a token `{text.muted.color}` may be `text.mutedColor`. */
function lookUp(tokens: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return tokens;
  if (typeof tokens !== 'object' || tokens === null) return undefined;
  const record = tokens as Tokens;
  for (let length = path.length; length >= 1; length -= 1) {
    const key = path
      .slice(0, length)
      .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
      .join('');
    if (key in record) {
      const found = lookUp(record[key], path.slice(length));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A colour token or value resolved to its hex colour in `scheme`. */
function resolve(value: string, scheme: Scheme): string {
  const reference = /^\{(.+)\}$/.exec(value);
  if (!reference) return value;
  const path = reference[1]!.split('.');
  const found = [preset.semantic.colorScheme[scheme], preset.semantic, preset.primitive]
    .map((tokens) => lookUp(tokens, path))
    .find((each) => typeof each === 'string');
  if (typeof found !== 'string') throw new Error(`no token ${value} in ${scheme}`);
  return resolve(found, scheme);
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(foreground: string, background: string, scheme: Scheme): number {
  const [a, b] = [foreground, background].map((each) => luminance(resolve(each, scheme)));
  return (Math.max(a!, b!) + 0.05) / (Math.min(a!, b!) + 0.05);
}

const SURFACE: Record<Scheme, string> = { light: '#ffffff', dark: '{surface.900}' };
const SEVERITIES = ['success', 'info', 'warn', 'help', 'danger'] as const;
const MESSAGES = ['info', 'success', 'warn', 'error'] as const;

const button = (scheme: Scheme) => preset.components.button!.colorScheme[scheme] as Tokens;
const setting = (tokens: unknown, ...path: string[]) => lookUp(tokens, path) as string;

describe('light scheme: text on white reaches 4.5:1', () => {
  test('primary colour as text, and white text on a primary button', () => {
    expect(contrast('{primary.color}', '#ffffff', 'light')).toBeGreaterThanOrEqual(4.5);
    expect(contrast('{primary.contrast.color}', '{primary.color}', 'light')).toBeGreaterThanOrEqual(
      4.5,
    );
    expect(contrast('#ffffff', '{primary.hover.color}', 'light')).toBeGreaterThanOrEqual(4.5);
  });

  test.each(SEVERITIES)('%s buttons: filled, text and outlined', (severity) => {
    const tokens = button('light');
    expect(
      contrast('#ffffff', setting(tokens, 'root', severity, 'background'), 'light'),
    ).toBeGreaterThanOrEqual(4.5);
    for (const variant of ['text', 'outlined']) {
      expect(
        contrast(setting(tokens, variant, severity, 'color'), '#ffffff', 'light'),
      ).toBeGreaterThanOrEqual(4.5);
    }
  });

  test('muted text, on white and on a toggle button’s grey', () => {
    expect(contrast('{text.muted.color}', '#ffffff', 'light')).toBeGreaterThanOrEqual(4.5);
    const toggle = preset.components.togglebutton!.colorScheme.light;
    expect(
      contrast(setting(toggle, 'root', 'color'), setting(toggle, 'root', 'background'), 'light'),
    ).toBeGreaterThanOrEqual(4.5);
  });
});

describe.each(['light', 'dark'] as const)('%s scheme', (scheme) => {
  test.each(MESSAGES)('%s message text on its tinted background', (severity) => {
    const message = preset.components.message!.colorScheme[scheme];
    // The message's own background is the severity's tint over the surface: its 50 shade in
    // light, the surface itself (a little lighter) in dark; both are checked with a margin.
    const tint = scheme === 'light' ? `{${palette(severity)}.50}` : '{surface.800}';
    for (const color of [
      setting(message, severity, 'color'),
      setting(message, severity, 'simple', 'color'),
    ]) {
      expect(contrast(color, tint, scheme)).toBeGreaterThanOrEqual(4.5);
    }
  });

  test.each(['success', 'warn', 'danger'])('status text %s on the surface', (status) => {
    expect(contrast(`{status.${status}.color}`, SURFACE[scheme], scheme)).toBeGreaterThanOrEqual(
      4.5,
    );
  });
});

function palette(severity: (typeof MESSAGES)[number]): string {
  return { info: 'blue', success: 'green', warn: 'yellow', error: 'red' }[severity];
}
