import type { IpcMainInvokeEvent, WebContents } from 'electron';
import {
  CHANNEL_NAMES,
  type ChannelName,
  type Envelope,
  type EventName,
  type Events,
  type Unsubscribe,
} from '../ipc/contract.ts';
import type { Dispatch } from '../ipc/dispatch.ts';
import type { Logger } from '../services/logger.ts';
import { eventChannel } from '../preload/api.ts';
import { isAppUrl, originOf } from './security.ts';

/** The part of `ipcMain` the router uses, so tests can give it a fake. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export interface SenderCheckOptions {
  /** The web contents of our windows, looked up at each call (windows come and go). */
  ourWebContents(): readonly WebContents[];
  appOrigin: string;
}

/**
 * Checklist item 17: a message is ours only if it comes from the main frame of one of our
 * windows, and that frame shows our origin. A subframe, a window we did not create, or a page
 * that somehow navigated elsewhere is refused.
 */
export function createSenderCheck({ ourWebContents, appOrigin }: SenderCheckOptions): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (frame == null || frame.parent !== null) return false;
    const contents = event.sender;
    if (!ourWebContents().includes(contents)) return false;
    const main = contents.mainFrame;
    if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
    return isAppUrl(frame.url, appOrigin);
  };
}

function describeSender(event: IpcMainInvokeEvent): Record<string, unknown> {
  const url = event.senderFrame?.url;
  return {
    webContentsId: event.sender?.id,
    // The origin is enough to investigate; a full URL could carry user data.
    origin: url === undefined ? undefined : (originOf(url) ?? 'unparsable'),
    mainFrame: event.senderFrame ? event.senderFrame.parent === null : undefined,
  };
}

export interface RegisterChannelsOptions {
  ipcMain: IpcMainLike;
  dispatch: Dispatch;
  isTrustedSender: SenderCheck;
  /**
   * Channels only some of our windows may use, checked after `isTrustedSender` (e.g. the print
   * window's own channel, which no other page needs).
   */
  senderRules?: Partial<Record<ChannelName, SenderCheck>>;
  log: Logger;
}

/**
 * The one place channels are registered: every contract channel through `ipcMain.handle`,
 * refusing untrusted senders with a 'forbidden' envelope before the dispatcher checks the
 * arguments against the channel's schema. Returns a function that unregisters them all.
 */
export function registerChannels({
  ipcMain,
  dispatch,
  isTrustedSender,
  senderRules = {},
  log,
}: RegisterChannelsOptions): Unsubscribe {
  for (const channel of CHANNEL_NAMES) {
    const rule = senderRules[channel];
    ipcMain.handle(channel, async (event, ...args): Promise<Envelope<unknown>> => {
      const trusted = isTrustedSender(event);
      if (!trusted || (rule && !rule(event))) {
        log.warn(
          trusted
            ? 'IPC call refused: this window may not use the channel'
            : 'IPC call refused: sender is not a PlantDesk window',
          { channel, ...describeSender(event) },
        );
        return {
          ok: false,
          error: { kind: 'forbidden', message: 'This window may not use PlantDesk services' },
        };
      }
      return dispatch(channel, args);
    });
  }
  return () => {
    for (const channel of CHANNEL_NAMES) ipcMain.removeHandler(channel);
  };
}

export interface EventSource {
  onAny(listener: (event: EventName, payload: Events[EventName]) => void): Unsubscribe;
}

/**
 * Forwards every bus event to our windows. A window is sent events only while its main frame
 * shows our origin, so a payload (the signed-in user, say) never reaches another page.
 */
export function forwardEvents(
  bus: EventSource,
  ourWebContents: () => readonly WebContents[],
  appOrigin: string,
): Unsubscribe {
  return bus.onAny((event, payload) => {
    for (const contents of ourWebContents()) {
      if (contents.isDestroyed()) continue;
      if (!isAppUrl(contents.getURL(), appOrigin)) continue;
      contents.send(eventChannel(event), payload);
    }
  });
}
