/**
 * Renderer files whose words are not yet in i18n/messages (issue 15's conversion, area by area):
 * the raw-text lint rule skips them until they are converted. This list only shrinks.
 */
export const I18N_PENDING = [
  'renderer/src/components/commissioning/AcceptanceRecheck.vue',
  'renderer/src/components/commissioning/CommissioningReport.vue',
  'renderer/src/components/commissioning/drafts/CommissioningDrafts.vue',
  'renderer/src/components/commissioning/drafts/DraftDevicesStep.vue',
  'renderer/src/components/commissioning/drafts/DraftForm.vue',
  'renderer/src/components/commissioning/drafts/DraftItemsTable.vue',
  'renderer/src/components/commissioning/drafts/DraftPlantForm.vue',
  'renderer/src/components/commissioning/drafts/DraftSendPanel.vue',
  'renderer/src/components/commissioning/drafts/DraftSensorsStep.vue',
  'renderer/src/components/commissioning/drafts/DraftVendorsStep.vue',
  'renderer/src/components/commissioning/notes/CameraDialog.vue',
  'renderer/src/components/commissioning/notes/StepNotes.vue',
  'renderer/src/components/commissioning/report/ReportChecks.vue',
  'renderer/src/components/commissioning/report/ReportLiveValues.vue',
  'renderer/src/components/commissioning/report/ReportNotes.vue',
  'renderer/src/components/commissioning/report/ReportSignature.vue',
  'renderer/src/views/CommissioningDraftView.vue',
  'renderer/src/views/DraftsView.vue',
];
