import { vi } from 'vitest';
import { DARK_QUERY } from '../../../renderer/src/composables/useChartTheme.ts';

/** A matchMedia whose dark-scheme answer the test switches. */
export function fakeColorScheme(dark: boolean) {
  const listeners = new Set<(event: { matches: boolean }) => void>();
  const media = {
    get matches() {
      return dark;
    },
    media: DARK_QUERY,
    addEventListener: (_type: string, listener: (event: { matches: boolean }) => void) =>
      listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: { matches: boolean }) => void) =>
      listeners.delete(listener),
  };
  vi.spyOn(window, 'matchMedia').mockImplementation(() => media as unknown as MediaQueryList);
  return {
    listeners,
    set(next: boolean) {
      dark = next;
      for (const listener of listeners) listener({ matches: next });
    },
  };
}

/**
 * happy-dom has no canvas: a 2D context whose every method does nothing (text is 6 px a
 * character), so Chart.js lays out and "draws" — enough to run the real configuration, the
 * plugins and the first-frame event.
 */
export function fakeCanvas() {
  const contexts: Record<string, unknown>[] = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
    this: HTMLCanvasElement,
  ) {
    const state: Record<string | symbol, unknown> = { canvas: this };
    const context = new Proxy(state, {
      get(target, property) {
        if (property in target) return target[property];
        if (property === 'measureText') {
          return (text: string) => ({
            width: text.length * 6,
            actualBoundingBoxAscent: 8,
            actualBoundingBoxDescent: 2,
          });
        }
        if (property === 'getLineDash') return () => [];
        if (property === 'createLinearGradient' || property === 'createPattern') {
          return () => ({ addColorStop: () => undefined });
        }
        if (property === 'getImageData') return () => ({ data: new Uint8ClampedArray(4) });
        return () => undefined;
      },
      set(target, property, value) {
        target[property] = value;
        return true;
      },
    });
    contexts.push(state);
    return context as unknown as RenderingContext;
  } as never);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/png;base64,AAAA');
  return contexts;
}

/** Captures the downloads made through `<a download>`: file name, URL and, for blobs, the text. */
export function captureDownloads() {
  const blobs = new Map<string, Blob>();
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${next++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const downloads: { name: string; url: string; text(): Promise<string> }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const url = this.href;
    downloads.push({
      name: this.download,
      url,
      text: async () => (await blobs.get(url)?.text()) ?? '',
    });
  });
  return downloads;
}
