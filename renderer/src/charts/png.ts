import type { Chart } from 'chart.js';

/**
 * The chart's image as a PNG data URL, on the theme's background (a canvas is transparent:
 * an exported PNG would otherwise show black or white behind the lines depending on the viewer).
 */
export function chartPng(chart: Pick<Chart, 'canvas'>, background: string): string {
  const source = chart.canvas;
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const context = canvas.getContext('2d');
  if (!context) return source.toDataURL('image/png');
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(source, 0, 0);
  return canvas.toDataURL('image/png');
}
