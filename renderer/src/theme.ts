import { definePreset } from '@primeuix/themes';
import Aura from '@primeuix/themes/aura';

/**
 * Aura with the contrast WCAG 2.1 AA asks for (4.5:1 for text, 3:1 for large text and controls).
 * In the light scheme Aura puts its 500 shades on white: emerald text and buttons reach 2.5:1,
 * red 3.8:1, slate muted text on the grey of a toggle 4.3:1, yellow message text 2.8:1. Here
 * those are the 700 shades (600 for muted text), 5:1 and more; hover and pressed states go one
 * and two shades darker as in Aura. The dark scheme keeps Aura's light shades on dark surfaces,
 * which already pass, except message text (Aura's 500 shades, 4:1 on their tinted
 * background): 400 there.
 */

/** The severities of Aura's coloured buttons and the palette each is drawn from. */
const BUTTON_PALETTES = {
  success: 'green',
  info: 'sky',
  warn: 'orange',
  help: 'purple',
  danger: 'red',
} as const;

const MESSAGE_PALETTES = {
  info: 'blue',
  success: 'green',
  warn: 'yellow',
  error: 'red',
} as const;

function filledButton(palette: string) {
  return {
    background: `{${palette}.700}`,
    hoverBackground: `{${palette}.800}`,
    activeBackground: `{${palette}.900}`,
    borderColor: `{${palette}.700}`,
    hoverBorderColor: `{${palette}.800}`,
    activeBorderColor: `{${palette}.900}`,
    focusRing: { color: `{${palette}.700}`, shadow: 'none' },
  };
}

function messageText(palette: string, shade: string) {
  const color = `{${palette}.${shade}}`;
  return { color, outlined: { color, borderColor: color }, simple: { color } };
}

/**
 * The app's own status text (passed, failed, warnings, errors beside a field), as
 * `--p-status-success-color`, `--p-status-warn-color` and `--p-status-danger-color`: dark shades
 * on light surfaces, light shades on dark ones.
 */
function statusColors(shade: string) {
  return {
    successColor: `{green.${shade}}`,
    warnColor: `{amber.${shade}}`,
    dangerColor: `{red.${shade}}`,
  };
}

function perSeverity<T>(palettes: Record<string, string>, make: (palette: string) => T) {
  return Object.fromEntries(Object.entries(palettes).map(([key, palette]) => [key, make(palette)]));
}

export const PlantDeskPreset = definePreset(Aura, {
  semantic: {
    colorScheme: {
      light: {
        primary: {
          color: '{primary.700}',
          hoverColor: '{primary.800}',
          activeColor: '{primary.900}',
        },
        text: { mutedColor: '{surface.600}', hoverMutedColor: '{surface.700}' },
        status: statusColors('700'),
      },
      dark: { status: statusColors('400') },
    },
  },
  components: {
    button: {
      colorScheme: {
        light: {
          root: perSeverity(BUTTON_PALETTES, filledButton),
          outlined: {
            ...perSeverity(BUTTON_PALETTES, (palette) => ({ color: `{${palette}.700}` })),
            secondary: { color: '{surface.600}' },
          },
          text: {
            ...perSeverity(BUTTON_PALETTES, (palette) => ({ color: `{${palette}.700}` })),
            secondary: { color: '{surface.600}' },
          },
        },
      },
    },
    message: {
      colorScheme: {
        light: perSeverity(MESSAGE_PALETTES, (palette) => messageText(palette, '700')),
        dark: perSeverity(MESSAGE_PALETTES, (palette) => messageText(palette, '400')),
      },
    },
    togglebutton: {
      colorScheme: {
        light: {
          root: { color: '{surface.600}' },
          icon: { color: '{surface.600}' },
        },
      },
    },
  },
});
