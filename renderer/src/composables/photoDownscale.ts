/**
 * Photos for the commissioning notes, made small before they leave the page: at most
 * PHOTO_MAX_SIDE pixels on the longer side, as JPEG, so a report with a dozen photos stays a
 * few megabytes (the host refuses a photo over 2 M characters as a data URL).
 */

import type { Translate } from '../../../i18n/translator.ts';
import { translate } from '../i18n.ts';

export const PHOTO_MAX_SIDE = 1600;
export const PHOTO_QUALITY = 0.82;

/** The size that fits within `maxSide` on both sides, keeping the aspect; never enlarged. */
export function fitWithin(
  width: number,
  height: number,
  maxSide = PHOTO_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

function drawAsJpeg(
  source: CanvasImageSource,
  width: number,
  height: number,
  t: Translate,
): string {
  const size = fitWithin(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error(t('notes.photo.cannotDraw'));
  // JPEG has no transparency: a transparent PNG would turn black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(source, 0, 0, size.width, size.height);
  return canvas.toDataURL('image/jpeg', PHOTO_QUALITY);
}

/**
 * A picked image file as a downscaled JPEG data URL (EXIF orientation applied); its errors are
 * shown as they are, so they are worded in the user's language.
 */
export async function photoFromFile(file: File, t: Translate = translate): Promise<string> {
  if (!file.type.startsWith('image/')) {
    throw new Error(t('notes.photo.notImage', { file: file.name }));
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new Error(t('notes.photo.unreadable', { file: file.name }));
  }
  try {
    return drawAsJpeg(bitmap, bitmap.width, bitmap.height, t);
  } finally {
    bitmap.close();
  }
}

/** The camera's current frame as a downscaled JPEG data URL. */
export function photoFromVideo(video: HTMLVideoElement, t: Translate = translate): string {
  if (video.videoWidth === 0) throw new Error(t('notes.photo.cameraNotStarted'));
  return drawAsJpeg(video, video.videoWidth, video.videoHeight, t);
}
