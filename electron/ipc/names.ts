/**
 * The names of the IPC contract's channels and events, without their schemas. The sandboxed
 * preload needs only these, and importing contract.ts would bundle zod and the whole route table
 * into it. contract.ts checks at compile time that its channels and events are exactly these.
 */
export const CHANNEL_NAMES = [
  'app.info',
  'app.setLanguage',
  'environments.list',
  'environments.add',
  'environments.update',
  'environments.remove',
  'environments.select',
  'environments.testConnection',
  'localSandbox.state',
  'localSandbox.start',
  'localSandbox.stop',
  'localSandbox.restart',
  'session.state',
  'session.signIn',
  'session.signOut',
  'session.refreshUser',
  'api.call',
  'api.cancel',
  'report.savePdf',
  'alerts.state',
  'alerts.acknowledge',
  'alerts.mute',
  'alerts.unmute',
  'alerts.updateSettings',
  'alerts.checkNow',
  'drafts.list',
  'drafts.get',
  'drafts.save',
  'drafts.delete',
  'drafts.send',
  'commissioningNotes.get',
  'commissioningNotes.setText',
  'commissioningNotes.addPhoto',
  'commissioningNotes.removePhoto',
  'acceptance.commissioned',
  'acceptance.get',
  'comparison.compare',
  'comparison.signIn',
  'supportBundle.prepare',
  'supportBundle.save',
  'supportBundle.download',
  'shell.openExternal',
] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = [
  'session.changed',
  'session.expired',
  'environments.changed',
  'localSandbox.changed',
  'keychain.unavailable',
  'alerts.changed',
  'alerts.notification',
  'acceptance.changed',
  'supportBundle.open',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
